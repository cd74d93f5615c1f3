// What an object's management policies and deletion policy let the controller do (Crossplane's
// spec.managementPolicies and spec.deletionPolicy), asked by decisions and activities alike.
import type { DeletionPolicy, ManagementAction } from './managed';

export function allows(policies: readonly ManagementAction[], action: ManagementAction): boolean {
  return policies.includes('*') || policies.includes(action);
}

/** Whether deleting the object deletes its external resource: deletionPolicy Delete, and the policies allow it. */
export function deletesExternal(object: { deletionPolicy: DeletionPolicy; managementPolicies: readonly ManagementAction[] }): boolean {
  return object.deletionPolicy === 'Delete' && allows(object.managementPolicies, 'Delete');
}
