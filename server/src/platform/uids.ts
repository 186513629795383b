/** Uids of the host's content types the plugin reads or writes (its own are `uid(name)`, see plugin-id.ts). */
export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const PERMISSION_UID = 'plugin::users-permissions.permission';
