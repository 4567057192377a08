export { exactOrigin, isLocalOrigin, originField, ORIGIN_RULE } from './origins.js';
export {
  listWidgetsInput,
  updateWidgetInput,
  widgetIdParams,
  DEFAULT_BUTTON_TEXT,
  MAX_ALLOWED_ORIGINS,
  type ListWidgetsInput,
  type UpdateWidgetInput,
} from './schemas.js';
export { widgetFor, findWidget, widgetView, listWidgets, updateWidget, type WidgetRow, type WidgetView } from './settings.js';
