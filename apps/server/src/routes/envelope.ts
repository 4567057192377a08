/** Success envelope: `{result: true, message, data}` (its schema is `envelope()` in @remit/contract). */
export const ok = <T>(message: string, data: T) => ({ result: true as const, message, data });
