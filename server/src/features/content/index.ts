/** Content (articles, pages, menus, banners, categories, tags, views, locales): what the wiring and other features use. */
export { articleDelete } from './article-delete.document-middleware';
export { default as articleController } from './article.controller';
export { default as bannerController } from './banner.controller';
export { default as categoryController } from './category.controller';
export { default as contentRoutes } from './content.routes';
export { default as contentService } from './content.service';
export { articleDetail, localization, media, menu, pageDetail, taxonomy } from './content.shapes';
export { default as localesService } from './locales';
export { default as menuController } from './menu.controller';
export { default as menusService } from './menus';
export { default as pageController } from './page.controller';
export { ensureRoomForViews } from './room-for-views';
export { default as tagController } from './tag.controller';
export { default as taxonomyService } from './taxonomy';
export { keepViewCounts } from './view-counts.document-middleware';
export { default as viewsService } from './views';
export { article, localeParam, localeQuery } from './content.shapes';
export { readerCounter } from './reader-views';
