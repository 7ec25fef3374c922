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

/// `(group version, kinds)`.
static REGISTERED: &[(&str, &str)] = &[
    ("admission.k8s.io/v1", "AdmissionReview"),
    ("admission.k8s.io/v1beta1", "AdmissionReview"),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingWebhookConfiguration ValidatingWebhookConfigurationList \
         MutatingWebhookConfiguration MutatingWebhookConfigurationList \
         ValidatingAdmissionPolicy ValidatingAdmissionPolicyList \
         ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList \
         MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding \
         MutatingAdmissionPolicyBindingList",
    ),
    (
        "admissionregistration.k8s.io/v1alpha1",
        "ValidatingAdmissionPolicy ValidatingAdmissionPolicyList \
         ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList \
         MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding \
         MutatingAdmissionPolicyBindingList",
    ),
    (
        "admissionregistration.k8s.io/v1beta1",
        "ValidatingWebhookConfiguration ValidatingWebhookConfigurationList \
         MutatingWebhookConfiguration MutatingWebhookConfigurationList \
         ValidatingAdmissionPolicy ValidatingAdmissionPolicyList \
         ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList \
         MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding \
         MutatingAdmissionPolicyBindingList",
    ),
    (
        "apps/v1",
        "Deployment DeploymentList StatefulSet StatefulSetList DaemonSet DaemonSetList \
         ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList",
    ),
    (
        "apps/v1beta1",
        "Deployment DeploymentList DeploymentRollback Scale StatefulSet StatefulSetList \
         ControllerRevision ControllerRevisionList",
    ),
    (
        "apps/v1beta2",
        "Deployment DeploymentList Scale StatefulSet StatefulSetList DaemonSet DaemonSetList \
         ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList",
    ),
    (
        "authentication.k8s.io/v1",
        "TokenReview TokenRequest SelfSubjectReview",
    ),
    ("authentication.k8s.io/v1alpha1", "SelfSubjectReview"),
    (
        "authentication.k8s.io/v1beta1",
        "SelfSubjectReview TokenReview",
    ),
    (
        "authorization.k8s.io/v1",
        "SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview \
         LocalSubjectAccessReview",
    ),
    (
        "authorization.k8s.io/v1beta1",
        "SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview \
         LocalSubjectAccessReview",
    ),
    (
        "autoscaling/v1",
        "HorizontalPodAutoscaler HorizontalPodAutoscalerList Scale",
    ),
    (
        "autoscaling/v2",
        "HorizontalPodAutoscaler HorizontalPodAutoscalerList",
    ),
    ("batch/v1", "Job JobList CronJob CronJobList"),
    ("batch/v1beta1", "CronJob CronJobList"),
    (
        "certificates.k8s.io/v1",
        "CertificateSigningRequest CertificateSigningRequestList",
    ),
    (
        "certificates.k8s.io/v1alpha1",
        "ClusterTrustBundle ClusterTrustBundleList",
    ),
    (
        "certificates.k8s.io/v1beta1",
        "CertificateSigningRequest CertificateSigningRequestList ClusterTrustBundle \
         ClusterTrustBundleList PodCertificateRequest PodCertificateRequestList",
    ),
    ("coordination.k8s.io/v1", "Lease LeaseList"),
    (
        "coordination.k8s.io/v1alpha2",
        "LeaseCandidate LeaseCandidateList",
    ),
    (
        "coordination.k8s.io/v1beta1",
        "Lease LeaseList LeaseCandidate LeaseCandidateList",
    ),
    ("discovery.k8s.io/v1", "EndpointSlice EndpointSliceList"),
    (
        "discovery.k8s.io/v1beta1",
        "EndpointSlice EndpointSliceList",
    ),
    ("events.k8s.io/v1", "Event EventList"),
    ("events.k8s.io/v1beta1", "Event EventList"),
    (
        "extensions/v1beta1",
        "Deployment DeploymentList DeploymentRollback Scale DaemonSetList DaemonSet Ingress \
         IngressList ReplicaSet ReplicaSetList NetworkPolicy NetworkPolicyList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList",
    ),
    ("imagepolicy.k8s.io/v1alpha1", "ImageReview"),
    (
        "internal.apiserver.k8s.io/v1alpha1",
        "StorageVersion StorageVersionList",
    ),
    (
        "networking.k8s.io/v1",
        "Ingress IngressList IngressClass IngressClassList NetworkPolicy NetworkPolicyList \
         IPAddress IPAddressList ServiceCIDR ServiceCIDRList",
    ),
    (
        "networking.k8s.io/v1beta1",
        "Ingress IngressList IngressClass IngressClassList IPAddress IPAddressList \
         ServiceCIDR ServiceCIDRList",
    ),
    ("node.k8s.io/v1", "RuntimeClass RuntimeClassList"),
    ("node.k8s.io/v1alpha1", "RuntimeClass RuntimeClassList"),
    ("node.k8s.io/v1beta1", "RuntimeClass RuntimeClassList"),
    (
        "policy/v1",
        "PodDisruptionBudget PodDisruptionBudgetList Eviction",
    ),
    (
        "policy/v1beta1",
        "PodDisruptionBudget PodDisruptionBudgetList Eviction",
    ),
    (
        "rbac.authorization.k8s.io/v1",
        "Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding \
         ClusterRoleBindingList ClusterRoleList",
    ),
    (
        "rbac.authorization.k8s.io/v1alpha1",
        "Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding \
         ClusterRoleBindingList ClusterRoleList",
    ),
    (
        "rbac.authorization.k8s.io/v1beta1",
        "Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding \
         ClusterRoleBindingList ClusterRoleList",
    ),
    (
        "resource.k8s.io/v1",
        "DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate \
         ResourceClaimTemplateList ResourceSlice ResourceSliceList",
    ),
    (
        "resource.k8s.io/v1alpha3",
        "DeviceTaintRule DeviceTaintRuleList ResourcePoolStatusRequest \
         ResourcePoolStatusRequestList",
    ),
    (
        "resource.k8s.io/v1beta1",
        "DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate \
         ResourceClaimTemplateList ResourceSlice ResourceSliceList",
    ),
    (
        "resource.k8s.io/v1beta2",
        "DeviceClass DeviceClassList DeviceTaintRule DeviceTaintRuleList ResourceClaim \
         ResourceClaimList ResourceClaimTemplate ResourceClaimTemplateList ResourceSlice \
         ResourceSliceList",
    ),
    ("scheduling.k8s.io/v1", "PriorityClass PriorityClassList"),
    (
        "scheduling.k8s.io/v1alpha2",
        "Workload WorkloadList PodGroup PodGroupList",
    ),
    (
        "scheduling.k8s.io/v1beta1",
        "PriorityClass PriorityClassList",
    ),
    (
        "storage.k8s.io/v1",
        "StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSINode \
         CSINodeList CSIDriver CSIDriverList CSIStorageCapacity CSIStorageCapacityList \
         VolumeAttributesClass VolumeAttributesClassList",
    ),
    (
        "storage.k8s.io/v1alpha1",
        "VolumeAttachment VolumeAttachmentList CSIStorageCapacity CSIStorageCapacityList \
         VolumeAttributesClass VolumeAttributesClassList",
    ),
    (
        "storage.k8s.io/v1beta1",
        "StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSIDriver \
         CSIDriverList CSINode CSINodeList CSIStorageCapacity CSIStorageCapacityList \
         VolumeAttributesClass VolumeAttributesClassList",
    ),
    (
        "storagemigration.k8s.io/v1beta1",
        "StorageVersionMigration StorageVersionMigrationList",
    ),
    (
        "v1",
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

/// The unversioned meta kinds `AddToGroupVersion` adds (Go package `v1`).
const UNVERSIONED_KINDS: &[&str] = &[
    "Status",
    "APIVersions",
    "APIGroupList",
    "APIGroup",
    "APIResourceList",
];

/// A runtime scheme's kinds as its `New` finds them: by group version, then the unversioned
/// kinds by name in any group version, known or not.
#[derive(Debug)]
pub struct Scheme {
    /// Where it is built, as its errors name it.
    pub name: &'static str,
    /// `(group version, kinds)`.
    registered: &'static [(&'static str, &'static str)],
    /// Kinds registered in every group version it holds.
    every_version: &'static [&'static str],
    unversioned: &'static [&'static str],
}

/// kube-apiserver's scheme (`pkg/api/legacyscheme`), which resource bodies are decoded with.
pub static LEGACY: Scheme = Scheme {
    name: "pkg/api/legacyscheme/scheme.go:30",
    registered: REGISTERED,
    every_version: OPTION_KINDS,
    unversioned: UNVERSIONED_KINDS,
};

/// The meta internal scheme DeleteOptions bodies are decoded with: Delete, Create and Update
/// options are unversioned there besides the usual five.
pub static META_INTERNAL: Scheme = Scheme {
    name: "pkg/apis/meta/internalversion/scheme/register.go:27",
    registered: &[
        (
            "meta.k8s.io/v1",
            "DeleteOptions ListOptions GetOptions PatchOptions WatchEvent Table TableOptions \
             PartialObjectMetadata PartialObjectMetadataList",
        ),
        (
            "meta.k8s.io/v1beta1",
            "Table TableOptions PartialObjectMetadata PartialObjectMetadataList",
        ),
    ],
    every_version: &[],
    unversioned: &[
        "DeleteOptions",
        "CreateOptions",
        "UpdateOptions",
        "Status",
        "APIVersions",
        "APIGroupList",
        "APIGroup",
        "APIResourceList",
    ],
};

impl Scheme {
    /// Whether the scheme can create `kind` of `group_version`.
    pub fn is_registered(&self, group_version: &str, kind: &str) -> bool {
        self.unversioned.contains(&kind)
            || self
                .registered
                .iter()
                .find(|(gv, _)| *gv == group_version)
                .is_some_and(|(_, kinds)| {
                    kinds.split_whitespace().any(|k| k == kind)
                        || self.every_version.contains(&kind)
                })
    }

    /// The versioned Go type of a registered kind as conversion errors print it: its package
    /// is named after its version (`v1beta1.Deployment`), except the meta kinds
    /// (`v1.ListOptions`, `v1.Status`).
    pub fn versioned_type_name(&self, group_version: &str, kind: &str) -> String {
        let version = match self.every_version.contains(&kind) || self.unversioned.contains(&kind) {
            true => "v1",
            false => group_version.rsplit('/').next().unwrap_or(group_version),
        };
        format!("{version}.{kind}")
    }

    /// `runtime.NewNotRegisteredErrForKind`'s text: `no kind "K" is registered for version
    /// "gv" in scheme "<where the scheme was built>"`.
    pub fn not_registered(&self, kind: &str, group_version: &str) -> String {
        use crate::codec::go_quote;
        format!(
            "no kind {} is registered for version {} in scheme {}",
            go_quote(kind),
            go_quote(group_version),
            go_quote(self.name)
        )
    }
}

/// The hub (internal) Go type of `kind` in `group`, as conversion errors print it
/// (`apps.ControllerRevision`, `core.ConfigMap`): its package is named after the group's first
/// DNS label, `core` for the core group, `apiserverinternal` for `internal.apiserver.k8s.io`.
pub fn internal_type_name(group: &str, kind: &str) -> String {
    let package = match group {
        "" => "core",
        "internal.apiserver.k8s.io" => "apiserverinternal",
        _ => group.split('.').next().unwrap_or(group),
    };
    format!("{package}.{kind}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_kinds_as_the_real_scheme_holds_them() {
        let is_registered = |gv, kind| LEGACY.is_registered(gv, kind);
        let versioned_type_name = |gv, kind| LEGACY.versioned_type_name(gv, kind);
        assert!(is_registered("apps/v1", "Deployment"));
        assert!(is_registered("apps/v1beta1", "ControllerRevision"));
        assert!(is_registered("apps/v1", "DeleteOptions"));
        assert!(is_registered("v1", "Status"));
        // Unversioned kinds are found by name in any group version (`Scheme.New`).
        assert!(is_registered("apps/v1", "Status"));
        assert!(is_registered("example.com/v1", "Status"));
        assert_eq!(versioned_type_name("apps/v1", "Status"), "v1.Status");
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
        assert_eq!(
            internal_type_name("internal.apiserver.k8s.io", "StorageVersion"),
            "apiserverinternal.StorageVersion"
        );
    }
}
