import '@ninefold/react/style.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from './HostApp';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <HostApp />
  </StrictMode>,
);
