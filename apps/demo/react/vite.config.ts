import react from '@vitejs/plugin-react';
import { demoApp } from '../vite.app.js';

export default demoApp('React', 'main.tsx', react());
