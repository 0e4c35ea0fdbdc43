// The shared UI pieces' own text: dialogs and side panels.

export const text = {
  /** The summary of a folded group of technical settings (Advanced.svelte). */
  advanced: 'Advanced',
  dialog: {
    cancel: 'Cancel',
  },
  panel: {
    close: (name: string) => `Close ${name}`,
  },
};
