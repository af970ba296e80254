export const median = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
export const geomean = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x) && x > 0);
  return v.length ? Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length) : null;
};
export const max = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x));
  return v.length ? Math.max(...v) : null;
};
