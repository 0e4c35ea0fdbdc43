// src-shared: pure TypeScript shared by main, preload, renderer and the reference service.
// No electron, node:* or DOM imports here (lint enforces it).
export * from './domain';
export * from './errors';
export * from './geo';
export * from './ipc-contract';
export * from './outbox-types';
export * from './search';
export * from './sync-state';
export * from './time';
export * from './basemap';
