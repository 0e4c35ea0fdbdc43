// The support notice's own text.

export const text = {
  dismiss: 'Dismiss',
};
