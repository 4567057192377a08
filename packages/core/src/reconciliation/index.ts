export { reconcilePayments, startReconciler, type ReconcileOptions, type ReconcileReport } from './reconcile.js';
export {
  reconcileIntents,
  INTENT_WINDOW_MS,
  type IntentMismatch,
  type IntentReconcileReport,
} from './reconcile-intents.js';
