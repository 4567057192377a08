export { exactOrigin, isLocalOrigin, originField, ORIGIN_RULE } from './origins.js';
export {
  widgetFor,
  findWidget,
  widgetView,
  listWidgets,
  updateWidget,
  type WidgetRow,
  type WidgetView,
} from './settings.js';
export {
  appearanceCss,
  appearanceFromQuery,
  appearanceProblems,
  stylesheetPath,
  withOverride,
  THEME_PALETTES,
} from './appearance.js';
export {
  widgetOriginsFor,
  widgetConfig,
  createWidgetPayLink,
  sendWidgetPaymentRequest,
  listWidgetTransactions,
} from './widget-api.js';
