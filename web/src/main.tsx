import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { i18nReady } from './i18n';
import { setFontSize } from './lib/font-size';
// Self-hosted fonts for every script the app offers, split by Unicode range: a page
// downloads only the subsets of the characters it shows, and reads the same on a machine without
// Bengali or Chinese fonts.
import '@fontsource-variable/noto-sans';
import '@fontsource-variable/noto-sans-bengali';
import '@fontsource-variable/noto-sans-sc';
import './styles.css';

// Medium until the user's settings (spec section 9, profile settings) are read.
setFontSize('medium');

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

void i18nReady.then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
