// The smoke workload: the h2 script at 3% scale (about 1 s); needs only libh2-java.
import { h2Workload } from './h2.mjs';

export default h2Workload({
  name: 'smoke', scale: 0.03,
  description: 'H2 RunScript on a small generated script (scale 0.03): the harness self-test',
});
