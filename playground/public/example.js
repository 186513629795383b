// The example site's entry: the header, then the view the address asks for (site.js `currentView`).
import { showAccountView } from './account.js';
import { showArticle } from './article.js';
import { showArticleList } from './articles.js';
import { $, currentView, showHeader } from './site.js';

const view = currentView();
$(`view-${view}`).hidden = false;

const shown = { list: showArticleList, article: showArticle, account: showAccountView }[view];
// `data-ready` on <body> once the view is drawn: something to wait for, for a reader of the code and for the tests.
Promise.all([showHeader(), shown()])
  .catch((error) => console.error(error))
  .finally(() => {
    document.body.dataset.ready = view;
  });
