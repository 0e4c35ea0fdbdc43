// The shared UI pieces' own text: dialogs and side panels.

export const text = {
  dialog: {
    cancel: 'Cancel',
  },
  panel: {
    close: (name: string) => `Close ${name}`,
  },
};
