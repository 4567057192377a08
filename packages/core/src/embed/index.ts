export { embedPolicy, cspReportUri, type LoaderRelease } from './policy.js';
export { recordCspReports, listCspReports, cspReportsSince, violationsOf } from './csp-reports.js';
export { saqAHtml, saqAMarkdown, type Operator, type SaqAInput } from './saq-a.js';
