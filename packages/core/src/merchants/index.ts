export { merchantForKey, lockMerchant, type Merchant } from './merchant-key.js';
