import { mount } from 'svelte';
import App from './app/App.svelte';
import { AppController } from './app/app-controller.svelte';
import { nextTask } from './ui/next-task';

const app = new AppController(window.fieldmap);
app.start();
// The bundle's evaluation and the first mount (with its style and layout) are each a task of
// their own: one task at the page's start held both, the longest of the app's own code before
// the map's constructor. The cache is opened meanwhile (start).
void nextTask().then(() => {
  mount(App, { target: document.getElementById('app')!, props: { app } });
});
