/** What a click on the map does right now ('draw-area': an area to download, for Offline maps). */
export type MapMode = 'browse' | 'pick-position' | 'lasso' | 'box' | 'draw-area';
