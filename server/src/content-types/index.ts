/** The plugin's content types: what editors manage in the Content Manager. Its internal tables are models (models/). */
import article from './article';
import category from './category';
import tag from './tag';
import comment from './comment';
import menu from './menu';
import menuItem from './menu-item';
import page from './page';
import banner from './banner';
import redirect from './redirect';
import newsletter from './newsletter';

export default {
  article,
  category,
  tag,
  comment,
  menu,
  'menu-item': menuItem,
  page,
  banner,
  redirect,
  newsletter,
};
