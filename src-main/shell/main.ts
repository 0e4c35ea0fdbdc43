// Placeholder entry, replaced by the Electron shell.
import { app } from 'electron';
void app.whenReady();
