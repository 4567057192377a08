import { createApp } from 'vue';
import Shop from './Shop.vue';
import './app.css';

createApp(Shop).mount('#app');
