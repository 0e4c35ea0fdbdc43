export const text = {
  preferences: {
    title: 'Preferences',
    distances: 'Distances',
    kilometres: 'Kilometres',
    miles: 'Miles',
  },
};
