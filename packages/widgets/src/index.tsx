import type { BootWidgets } from '@remit/loader/ui';
import { bootWidgets } from './boot.js';

/** The chunk's entry: hand the loader its operations (see @remit/loader's ui.ts). */
(window as unknown as { __remitUI?: (boot: BootWidgets) => void }).__remitUI?.(bootWidgets);
