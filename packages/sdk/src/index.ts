export { send, basicAuth, type HttpRequest, type HttpResponse } from './transport.js';
