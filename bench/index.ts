// `npm run bench`: every speed and size target of the project, as figures and ratios.
import { benchRules } from './rules';

benchRules();
