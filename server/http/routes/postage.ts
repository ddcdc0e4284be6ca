import type { Routes } from "../deps";

// TODO(issue 2): the calls of SPEC §7 for this resource.
export const postageRoutes: Routes = () => {};
