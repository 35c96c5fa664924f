import { z } from 'zod';
import { ROLES } from './role-names';

export { ROLES, parseRole } from './role-names';
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
