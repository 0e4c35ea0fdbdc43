import { mount } from 'svelte';
import App from './App.svelte';
import { AppController } from './state/app-controller.svelte';

const app = new AppController(window.fieldmap);
app.start();
mount(App, { target: document.getElementById('app')!, props: { app } });
