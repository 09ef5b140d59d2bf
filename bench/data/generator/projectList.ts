/** Every project the development set is generated from, in a fixed order. */
import { ATLAS } from './projects/atlas';
import { EMBERFALL } from './projects/emberfall';
import { KESTREL } from './projects/kestrel';
import { LEDGERLY } from './projects/ledgerly';
import { LINTLENS } from './projects/lintlens';
import { MOSAIC } from './projects/mosaic';
import { PAYBRIDGE } from './projects/paybridge';
import { POCKETFIT } from './projects/pocketfit';
import { RIVERBED } from './projects/riverbed';
import { SENTINEL } from './projects/sentinel';
import type { ProjectSpec } from './specTypes';

export const PROJECTS: readonly ProjectSpec[] = [
  LEDGERLY, KESTREL, RIVERBED, POCKETFIT, ATLAS, SENTINEL, LINTLENS, EMBERFALL, PAYBRIDGE, MOSAIC,
];
