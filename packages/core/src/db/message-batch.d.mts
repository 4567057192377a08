export declare const SEND_WITHIN_MS: number;
export declare function messageBatcher<T>(send: (batch: T[]) => void): (item: T) => void;
export declare function asMessage<T>(batch: T[]): T | { batch: T[] };
export declare function itemsOf<T>(message: T | { batch: T[] }): T[];
