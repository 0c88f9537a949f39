// The last module of the libraries' chunk (vite.config.ts), imported first by
// the app's entry: React's own code runs when that chunk runs, which a
// prerendered page's loader (public/boot.js) does in a task of its own, before
// the app's modules, so no single task starts the whole app on a phone.
import 'react';
import 'react/jsx-runtime';
import 'react-dom/client';
