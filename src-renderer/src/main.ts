import { mount } from 'svelte';
import App from './app/App.svelte';
import { AppController } from './app/app-controller.svelte';

const app = new AppController(window.fieldmap);
app.start();
mount(App, { target: document.getElementById('app')!, props: { app } });
