import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { i18nReady } from './i18n';
import { setFontSize } from './lib/font-size';
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
