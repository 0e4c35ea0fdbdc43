// Placeholder preload, replaced by the contract-built bridge.
import { contextBridge } from 'electron';
contextBridge.exposeInMainWorld('fieldmap', Object.freeze({}));
