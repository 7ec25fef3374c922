//! The kinds kube-apiserver's scheme (`pkg/api/legacyscheme`) knows, by group version, so a
//! body naming another kind fails as the real decoder fails: a registered kind is decoded and
//! then cannot be converted (`converting (v1.Deployment) to (apps.ControllerRevision): unknown
//! conversion`), an unregistered one cannot even be created (`no kind "X" is registered for
//! version "example.com/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`), and the same kind
//! in another registered version decodes but is refused by the handler.
//!
//! The table is every version of every group in k8s.io/api v0.36.3 that kube-apiserver
//! installs (its `addKnownTypes`), read from the sources; each group version also holds the
//! option kinds `metav1.AddToGroupVersion` adds, and `v1` the unversioned meta kinds.

/// `(group version, internal package, kinds)`: the internal package is the Go package name of
/// the hub types (`apps`, `core`, `rbac`), which conversion errors print.
static REGISTERED: &[(&str, &str, &str)] = &[
    ("admission.k8s.io/v1", "admission", "AdmissionReview"),
    ("admission.k8s.io/v1beta1", "admission", "AdmissionReview"),
    (
        "admissionregistration.k8s.io/v1",
        "admissionregistration",
        "ValidatingWebhookConfiguration ValidatingWebhookConfigurationList \
         MutatingWebhookConfiguration MutatingWebhookConfigurationList \
         ValidatingAdmissionPolicy ValidatingAdmissionPolicyList \
         ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList \
         MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding \
         MutatingAdmissionPolicyBindingList",
    ),
    (
        "admissionregistration.k8s.io/v1alpha1",
        "admissionregistration",
        "ValidatingAdmissionPolicy ValidatingAdmissionPolicyList \
         ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList \
         MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding \
         MutatingAdmissionPolicyBindingList",
    ),
    (
        "admissionregistration.k8s.io/v1beta1",
        "admissionregistration",
        "ValidatingWebhookConfiguration ValidatingWebhookConfigurationList \
         MutatingWebhookConfiguration MutatingWebhookConfigurationList \
         ValidatingAdmissionPolicy ValidatingAdmissionPolicyList \
         ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList \
         MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding \
         MutatingAdmissionPolicyBindingList",
    ),
    (
        "apps/v1",
        "apps",
        "Deployment DeploymentList StatefulSet StatefulSetList DaemonSet DaemonSetList \
         ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList",
    ),
    (
        "apps/v1beta1",
        "apps",
        "Deployment DeploymentList DeploymentRollback Scale StatefulSet StatefulSetList \
         ControllerRevision ControllerRevisionList",
    ),
    (
        "apps/v1beta2",
        "apps",
        "Deployment DeploymentList Scale StatefulSet StatefulSetList DaemonSet DaemonSetList \
         ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList",
    ),
    (
        "authentication.k8s.io/v1",
        "authentication",
        "TokenReview TokenRequest SelfSubjectReview",
    ),
    (
        "authentication.k8s.io/v1alpha1",
        "authentication",
        "SelfSubjectReview",
    ),
    (
        "authentication.k8s.io/v1beta1",
        "authentication",
        "SelfSubjectReview TokenReview",
    ),
    (
        "authorization.k8s.io/v1",
        "authorization",
        "SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview \
         LocalSubjectAccessReview",
    ),
    (
        "authorization.k8s.io/v1beta1",
        "authorization",
        "SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview \
         LocalSubjectAccessReview",
    ),
    (
        "autoscaling/v1",
        "autoscaling",
        "HorizontalPodAutoscaler HorizontalPodAutoscalerList Scale",
    ),
    (
        "autoscaling/v2",
        "autoscaling",
        "HorizontalPodAutoscaler HorizontalPodAutoscalerList",
    ),
    ("batch/v1", "batch", "Job JobList CronJob CronJobList"),
    ("batch/v1beta1", "batch", "CronJob CronJobList"),
    (
        "certificates.k8s.io/v1",
        "certificates",
        "CertificateSigningRequest CertificateSigningRequestList",
    ),
    (
        "certificates.k8s.io/v1alpha1",
        "certificates",
        "ClusterTrustBundle ClusterTrustBundleList",
    ),
    (
        "certificates.k8s.io/v1beta1",
        "certificates",
        "CertificateSigningRequest CertificateSigningRequestList ClusterTrustBundle \
         ClusterTrustBundleList PodCertificateRequest PodCertificateRequestList",
    ),
    ("coordination.k8s.io/v1", "coordination", "Lease LeaseList"),
    (
        "coordination.k8s.io/v1alpha2",
        "coordination",
        "LeaseCandidate LeaseCandidateList",
    ),
    (
        "coordination.k8s.io/v1beta1",
        "coordination",
        "Lease LeaseList LeaseCandidate LeaseCandidateList",
    ),
    (
        "discovery.k8s.io/v1",
        "discovery",
        "EndpointSlice EndpointSliceList",
    ),
    (
        "discovery.k8s.io/v1beta1",
        "discovery",
        "EndpointSlice EndpointSliceList",
    ),
    ("events.k8s.io/v1", "events", "Event EventList"),
    ("events.k8s.io/v1beta1", "events", "Event EventList"),
    (
        "extensions/v1beta1",
        "extensions",
        "Deployment DeploymentList DeploymentRollback Scale DaemonSetList DaemonSet Ingress \
         IngressList ReplicaSet ReplicaSetList NetworkPolicy NetworkPolicyList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1",
        "flowcontrol",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "flowcontrol",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "flowcontrol",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "flowcontrol",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    ("imagepolicy.k8s.io/v1alpha1", "imagepolicy", "ImageReview"),
    (
        "internal.apiserver.k8s.io/v1alpha1",
        "apiserverinternal",
        "StorageVersion StorageVersionList",
    ),
    (
        "networking.k8s.io/v1",
        "networking",
        "Ingress IngressList IngressClass IngressClassList NetworkPolicy NetworkPolicyList \
         IPAddress IPAddressList ServiceCIDR ServiceCIDRList",
    ),
    (
        "networking.k8s.io/v1beta1",
        "networking",
        "Ingress IngressList IngressClass IngressClassList IPAddress IPAddressList \
         ServiceCIDR ServiceCIDRList",
    ),
    ("node.k8s.io/v1", "node", "RuntimeClass RuntimeClassList"),
    (
        "node.k8s.io/v1alpha1",
        "node",
        "RuntimeClass RuntimeClassList",
    ),
    (
        "node.k8s.io/v1beta1",
        "node",
        "RuntimeClass RuntimeClassList",
    ),
    (
        "policy/v1",
        "policy",
        "PodDisruptionBudget PodDisruptionBudgetList Eviction",
    ),
    (
        "policy/v1beta1",
        "policy",
        "PodDisruptionBudget PodDisruptionBudgetList Eviction",
    ),
    (
        "rbac.authorization.k8s.io/v1",
        "rbac",
        "Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding \
         ClusterRoleBindingList ClusterRoleList",
    ),
    (
        "rbac.authorization.k8s.io/v1alpha1",
        "rbac",
        "Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding \
         ClusterRoleBindingList ClusterRoleList",
    ),
    (
        "rbac.authorization.k8s.io/v1beta1",
        "rbac",
        "Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding \
         ClusterRoleBindingList ClusterRoleList",
    ),
    (
        "resource.k8s.io/v1",
        "resource",
        "DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate \
         ResourceClaimTemplateList ResourceSlice ResourceSliceList",
    ),
    (
        "resource.k8s.io/v1alpha3",
        "resource",
        "DeviceTaintRule DeviceTaintRuleList ResourcePoolStatusRequest \
         ResourcePoolStatusRequestList",
    ),
    (
        "resource.k8s.io/v1beta1",
        "resource",
        "DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate \
         ResourceClaimTemplateList ResourceSlice ResourceSliceList",
    ),
    (
        "resource.k8s.io/v1beta2",
        "resource",
        "DeviceClass DeviceClassList DeviceTaintRule DeviceTaintRuleList ResourceClaim \
         ResourceClaimList ResourceClaimTemplate ResourceClaimTemplateList ResourceSlice \
         ResourceSliceList",
    ),
    (
        "scheduling.k8s.io/v1",
        "scheduling",
        "PriorityClass PriorityClassList",
    ),
    (
        "scheduling.k8s.io/v1alpha2",
        "scheduling",
        "Workload WorkloadList PodGroup PodGroupList",
    ),
    (
        "scheduling.k8s.io/v1beta1",
        "scheduling",
        "PriorityClass PriorityClassList",
    ),
    (
        "storage.k8s.io/v1",
        "storage",
        "StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSINode \
         CSINodeList CSIDriver CSIDriverList CSIStorageCapacity CSIStorageCapacityList \
         VolumeAttributesClass VolumeAttributesClassList",
    ),
    (
        "storage.k8s.io/v1alpha1",
        "storage",
        "VolumeAttachment VolumeAttachmentList CSIStorageCapacity CSIStorageCapacityList \
         VolumeAttributesClass VolumeAttributesClassList",
    ),
    (
        "storage.k8s.io/v1beta1",
        "storage",
        "StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSIDriver \
         CSIDriverList CSINode CSINodeList CSIStorageCapacity CSIStorageCapacityList \
         VolumeAttributesClass VolumeAttributesClassList",
    ),
    (
        "storagemigration.k8s.io/v1beta1",
        "storagemigration",
        "StorageVersionMigration StorageVersionMigrationList",
    ),
    (
        "v1",
        "core",
        "Pod PodList PodStatusResult PodTemplate PodTemplateList ReplicationController \
         ReplicationControllerList Service ServiceProxyOptions ServiceList Endpoints \
         EndpointsList Node NodeList NodeProxyOptions Binding Event EventList List LimitRange \
         LimitRangeList ResourceQuota ResourceQuotaList Namespace NamespaceList Secret \
         SecretList ServiceAccount ServiceAccountList PersistentVolume PersistentVolumeList \
         PersistentVolumeClaim PersistentVolumeClaimList PodAttachOptions PodLogOptions \
         PodExecOptions PodPortForwardOptions PodProxyOptions ComponentStatus \
         ComponentStatusList SerializedReference RangeAllocation ConfigMap ConfigMapList",
    ),
];

/// Kinds `metav1.AddToGroupVersion` registers in every group version (Go package `v1`).
const OPTION_KINDS: &[&str] = &[
    "WatchEvent",
    "ListOptions",
    "GetOptions",
    "DeleteOptions",
    "CreateOptions",
    "UpdateOptions",
    "PatchOptions",
];

/// The unversioned meta kinds, registered under version `v1` of the core group.
const UNVERSIONED_KINDS: &[&str] = &[
    "Status",
    "APIVersions",
    "APIGroupList",
    "APIGroup",
    "APIResourceList",
];

fn kinds_of(group_version: &str) -> Option<&'static str> {
    REGISTERED
        .iter()
        .find(|(gv, _, _)| *gv == group_version)
        .map(|(_, _, kinds)| *kinds)
}

/// Whether the real scheme can create `kind` of `group_version`.
pub fn is_registered(group_version: &str, kind: &str) -> bool {
    let Some(kinds) = kinds_of(group_version) else {
        return false;
    };
    kinds.split_whitespace().any(|k| k == kind)
        || OPTION_KINDS.contains(&kind)
        || (group_version == "v1" && UNVERSIONED_KINDS.contains(&kind))
}

/// The versioned Go type of a registered kind as conversion errors print it: its package is
/// named after its version (`v1beta1.Deployment`), except the meta kinds (`v1.ListOptions`).
pub fn versioned_type_name(group_version: &str, kind: &str) -> String {
    let version = group_version.rsplit('/').next().unwrap_or(group_version);
    let in_meta = OPTION_KINDS.contains(&kind)
        || (group_version == "v1" && UNVERSIONED_KINDS.contains(&kind));
    match in_meta {
        true => format!("v1.{kind}"),
        false => format!("{version}.{kind}"),
    }
}

/// The hub (internal) Go type of `kind` in `group`, as conversion errors print it
/// (`apps.ControllerRevision`, `core.ConfigMap`).
pub fn internal_type_name(group: &str, kind: &str) -> String {
    let package = match group {
        "" => "core",
        _ => REGISTERED
            .iter()
            .find(|(gv, _, _)| gv.rsplit_once('/').is_some_and(|(g, _)| g == group))
            .map_or(group, |(_, package, _)| *package),
    };
    format!("{package}.{kind}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_kinds_as_the_real_scheme_holds_them() {
        assert!(is_registered("apps/v1", "Deployment"));
        assert!(is_registered("apps/v1beta1", "ControllerRevision"));
        assert!(is_registered("apps/v1", "DeleteOptions"));
        assert!(is_registered("v1", "Status"));
        assert!(!is_registered("apps/v1", "Status"));
        assert!(!is_registered("apps/v1", "Pod"));
        assert!(!is_registered("example.com/v1", "ControllerRevision"));
        assert!(!is_registered("apps/v1beta9", "ControllerRevision"));
        assert_eq!(
            versioned_type_name("apps/v1", "Deployment"),
            "v1.Deployment"
        );
        assert_eq!(
            versioned_type_name("batch/v1beta1", "CronJob"),
            "v1beta1.CronJob"
        );
        assert_eq!(
            versioned_type_name("apps/v1beta2", "ListOptions"),
            "v1.ListOptions"
        );
        assert_eq!(
            internal_type_name("apps", "ControllerRevision"),
            "apps.ControllerRevision"
        );
        assert_eq!(internal_type_name("", "ConfigMap"), "core.ConfigMap");
        assert_eq!(
            internal_type_name("rbac.authorization.k8s.io", "Role"),
            "rbac.Role"
        );
    }
}
