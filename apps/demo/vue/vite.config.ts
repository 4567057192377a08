import vue from '@vitejs/plugin-vue';
import { demoApp } from '../vite.app.js';

export default demoApp('Vue', 'main.ts', vue());
