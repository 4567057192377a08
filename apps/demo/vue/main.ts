import { createApp } from 'vue';
import Shop from './Shop.vue';
// The shop's stylesheet: the three demo sites look alike.
import '../shop/shop.css';

createApp(Shop).mount('#app');
