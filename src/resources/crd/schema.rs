//! apiextensions.k8s.io/v1 types (`k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1`),
//! fields in Go struct order with their `omitempty`, pointer and required markers, so a
//! CustomResourceDefinition reads back as the real server writes it: `served` and `storage`
//! always present, `conditions`, `storedVersions` and `versions` written as `null` when unset,
//! `acceptedNames` always an object, JSONSchemaProps' `id`, `$schema`, `$ref` first and its
//! seven `x-kubernetes-*` fields last.
//!
//! Descriptions are the first sentence of each Go doc comment.

use crate::resources::schema::{
    always, f, ptr, req, ListType, MapKey, OrAlt, OrType, Struct, Type, API_VERSION_FIELD,
    KIND_FIELD, METADATA_FIELD,
};

const STRING: Type = Type::String;
const STRINGS: Type = Type::Array(&STRING, ListType::Atomic);
const PREFIX: &str = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.";

macro_rules! name {
    ($s:literal) => {
        concat!(
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.",
            $s
        )
    };
}

/// The OpenAPI name of an apiextensions/v1 type.
pub fn openapi_name(short: &str) -> String {
    format!("{PREFIX}{short}")
}

/// `CustomResourceDefinition`.
pub static CRD: Struct = Struct {
    openapi_name: name!("CustomResourceDefinition"),
    atomic: false,
    description: "CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.",
    fields: &[
        KIND_FIELD,
        API_VERSION_FIELD,
        METADATA_FIELD,
        req("spec", Type::Object(&SPEC), "spec describes how the user wants the resources to appear").pb(2),
        always("status", Type::Object(&STATUS), "status indicates the actual state of the CustomResourceDefinition").pb(3),
    ],
};

/// `CustomResourceDefinitionSpec`.
pub static SPEC: Struct = Struct {
    openapi_name: name!("CustomResourceDefinitionSpec"),
    atomic: false,
    description: "CustomResourceDefinitionSpec describes how a user wants their resource to appear",
    fields: &[
        req("group", Type::String, "group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).").pb(1),
        req("names", Type::Object(&NAMES), "names specify the resource and kind names for the custom resource.").pb(3),
        req("scope", Type::String, "scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.").go("v1.ResourceScope").pb(4),
        req("versions", Type::Array(&VERSION_T, ListType::Atomic), "versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery.").pb(7),
        ptr("conversion", Type::Object(&CONVERSION), "conversion defines conversion settings for the CRD.").pb(9),
        f("preserveUnknownFields", Type::Boolean, "preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. apiVersion, kind, metadata and known fields inside metadata are always preserved. This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`.").pb(10),
    ],
};

/// `CustomResourceConversion`.
pub static CONVERSION: Struct = Struct {
    openapi_name: name!("CustomResourceConversion"),
    atomic: false,
    description: "CustomResourceConversion describes how to convert different versions of a CR.",
    fields: &[
        req("strategy", Type::String, "strategy specifies how custom resources are converted between versions. Allowed values are: - `\"None\"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `\"Webhook\"`: API Server will call to an external webhook to do the conversion. Additional information\n  is needed for this option. This requires spec.preserveUnknownFields to be false, and spec.conversion.webhook to be set.").go("v1.ConversionStrategyType").pb(1),
        ptr("webhook", Type::Object(&WEBHOOK_CONVERSION), "webhook describes how to call the conversion webhook. Required when `strategy` is set to `\"Webhook\"`.").pb(2),
    ],
};

/// `WebhookConversion`.
pub static WEBHOOK_CONVERSION: Struct = Struct {
    openapi_name: name!("WebhookConversion"),
    atomic: false,
    description: "WebhookConversion describes how to call a conversion webhook",
    fields: &[
        ptr("clientConfig", Type::Object(&WEBHOOK_CLIENT_CONFIG), "clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.").pb(2),
        req("conversionReviewVersions", STRINGS, "conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects.").pb(3),
    ],
};

/// `WebhookClientConfig`: `url`, `service`, `caBundle` (protobuf numbers 3, 1, 2).
pub static WEBHOOK_CLIENT_CONFIG: Struct = Struct {
    openapi_name: name!("WebhookClientConfig"),
    atomic: false,
    description: "WebhookClientConfig contains the information to make a TLS connection with the webhook.",
    fields: &[
        ptr("url", Type::String, "url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.").pb(3),
        ptr("service", Type::Object(&SERVICE_REFERENCE), "service is a reference to the service for this webhook. Either service or url must be specified.").pb(1),
        f("caBundle", Type::Bytes, "caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server certificate. If unspecified, system trust roots on the apiserver are used.").pb(2),
    ],
};

/// `ServiceReference`.
pub static SERVICE_REFERENCE: Struct = Struct {
    openapi_name: name!("ServiceReference"),
    atomic: false,
    description: "ServiceReference holds a reference to Service.legacy.k8s.io",
    fields: &[
        req("namespace", Type::String, "namespace is the namespace of the service. Required").pb(1),
        req("name", Type::String, "name is the name of the service. Required").pb(2),
        ptr("path", Type::String, "path is an optional URL path at which the webhook will be contacted.").pb(3),
        ptr("port", Type::Int32, "port is an optional service port at which the webhook will be contacted. `port` should be a valid port number (1-65535, inclusive). Defaults to 443 for backward compatibility.").pb(4),
    ],
};

const VERSION_T: Type = Type::Object(&VERSION);

/// `CustomResourceDefinitionVersion`.
pub static VERSION: Struct = Struct {
    openapi_name: name!("CustomResourceDefinitionVersion"),
    atomic: false,
    description: "CustomResourceDefinitionVersion describes a version for CRD.",
    fields: &[
        req("name", Type::String, "name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.").pb(1),
        req("served", Type::Boolean, "served is a flag enabling/disabling this version from being served via REST APIs").pb(2),
        req("storage", Type::Boolean, "storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.").pb(3),
        f("deprecated", Type::Boolean, "deprecated indicates this version of the custom resource API is deprecated. When set to true, API requests to this version receive a warning header in the server response. Defaults to false.").pb(7),
        ptr("deprecationWarning", Type::String, "deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true. The default warning indicates this version is deprecated and recommends use of the newest served version of equal or greater stability, if one exists.").pb(8),
        ptr("schema", Type::Object(&VALIDATION), "schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.").pb(4),
        ptr("subresources", Type::Object(&SUBRESOURCES), "subresources specify what subresources this version of the defined custom resource have.").pb(5),
        f("additionalPrinterColumns", Type::Array(&COLUMN_T, ListType::Atomic), "additionalPrinterColumns specifies additional columns returned in Table output. See https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables for details. If no columns are specified, a single column displaying the age of the custom resource is used.").pb(6),
        f("selectableFields", Type::Array(&SELECTABLE_FIELD_T, ListType::Atomic), "selectableFields specifies paths to fields that may be used as field selectors. A maximum of 8 selectable fields are allowed. See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors").pb(9),
    ],
};

const SELECTABLE_FIELD_T: Type = Type::Object(&SELECTABLE_FIELD);

/// `SelectableField`.
pub static SELECTABLE_FIELD: Struct = Struct {
    openapi_name: name!("SelectableField"),
    atomic: false,
    description: "SelectableField specifies the JSON path of a field that may be used with field selectors.",
    fields: &[req("jsonPath", Type::String, "jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value. Only JSON paths without the array notation are allowed. Must point to a field of type string, boolean or integer. Types with enum values and strings with formats are allowed. If jsonPath refers to absent field in a resource, the jsonPath evaluates to an empty string. Must not point to metdata fields. Required.").pb(1)],
};

const COLUMN_T: Type = Type::Object(&COLUMN);

/// `CustomResourceColumnDefinition` (`jsonPath` last).
pub static COLUMN: Struct = Struct {
    openapi_name: name!("CustomResourceColumnDefinition"),
    atomic: false,
    description: "CustomResourceColumnDefinition specifies a column for server side printing.",
    fields: &[
        req("name", Type::String, "name is a human readable name for the column.").pb(1),
        req("type", Type::String, "type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.").pb(2),
        f("format", Type::String, "format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.").pb(3),
        f("description", Type::String, "description is a human readable description of this column.").pb(4),
        f("priority", Type::Int32, "priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority. Columns that may be omitted in limited space scenarios should be given a priority greater than 0.").pb(5),
        req("jsonPath", Type::String, "jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.").pb(6),
    ],
};

/// `CustomResourceValidation`.
pub static VALIDATION: Struct = Struct {
    openapi_name: name!("CustomResourceValidation"),
    atomic: false,
    description: "CustomResourceValidation is a list of validation methods for CustomResources.",
    fields: &[ptr(
        "openAPIV3Schema",
        Type::Object(&PROPS),
        "openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.",
    )
    .pb(1)],
};

/// `CustomResourceSubresources`.
pub static SUBRESOURCES: Struct = Struct {
    openapi_name: name!("CustomResourceSubresources"),
    atomic: false,
    description: "CustomResourceSubresources defines the status and scale subresources for CustomResources.",
    fields: &[
        ptr("status", Type::Object(&SUBRESOURCE_STATUS), "status indicates the custom resource should serve a `/status` subresource. When enabled: 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object. 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.").pb(1),
        ptr("scale", Type::Object(&SUBRESOURCE_SCALE), "scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.").pb(2),
    ],
};

/// `CustomResourceSubresourceStatus`: no fields (`{}` when set).
pub static SUBRESOURCE_STATUS: Struct = Struct {
    openapi_name: name!("CustomResourceSubresourceStatus"),
    atomic: false,
    description: "CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource. When set, * exposes a /status subresource for the custom resource * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza",
    fields: &[],
};

/// `CustomResourceSubresourceScale`.
pub static SUBRESOURCE_SCALE: Struct = Struct {
    openapi_name: name!("CustomResourceSubresourceScale"),
    atomic: false,
    description: "CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.",
    fields: &[
        req("specReplicasPath", Type::String, "specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.spec`. If there is no value under the given path in the custom resource, the `/scale` subresource will return an error on GET.").pb(1),
        req("statusReplicasPath", Type::String, "statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status`. If there is no value under the given path in the custom resource, the `status.replicas` value in the `/scale` subresource will default to 0.").pb(2),
        ptr("labelSelectorPath", Type::String, "labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status` or `.spec`. Must be set to work with HorizontalPodAutoscaler. The field pointed by this JSON path must be a string field (not a complex selector struct) which contains a serialized label selector in string form. More info: https://kubernetes.io/docs/tasks/access-kubernetes-api/custom-resources/custom-resource-definitions#scale-subresource If there is no value under the given path in the custom resource, the `status.selector` value in the `/scale` subresource will default to the empty string.").pb(3),
    ],
};

/// `CustomResourceDefinitionNames` (also `status.acceptedNames`).
pub static NAMES: Struct = Struct {
    openapi_name: name!("CustomResourceDefinitionNames"),
    atomic: false,
    description: "CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition",
    fields: &[
        req("plural", Type::String, "plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`). Must be all lowercase.").pb(1),
        f("singular", Type::String, "singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.").pb(2),
        f("shortNames", STRINGS, "shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.").pb(3),
        req("kind", Type::String, "kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.").pb(4),
        f("listKind", Type::String, "listKind is the serialized kind of the list for this resource. Defaults to \"`kind`List\".").pb(5),
        f("categories", STRINGS, "categories is a list of grouped resources this custom resource belongs to (e.g. 'all'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.").pb(6),
    ],
};

const CONDITION_T: Type = Type::Object(&CONDITION);

/// `CustomResourceDefinitionStatus`.
pub static STATUS: Struct = Struct {
    openapi_name: name!("CustomResourceDefinitionStatus"),
    atomic: false,
    description: "CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition",
    fields: &[
        always("conditions", Type::Array(&CONDITION_T, ListType::Map(&[MapKey::new("type")])), "conditions indicate state for particular aspects of a CustomResourceDefinition").pb(1),
        always("acceptedNames", Type::Object(&NAMES), "acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.").pb(2),
        always("storedVersions", STRINGS, "storedVersions lists all versions of CustomResources that were ever persisted. Tracking these versions allows a migration path for stored versions in etcd. The field is mutable so a migration controller can finish a migration to another version (ensuring no old objects are left in storage), and then remove the rest of the versions from this list. Versions may not be removed from `spec.versions` while they exist in this list.").pb(3),
        f("observedGeneration", Type::Int64, "The generation observed by the CRD controller.").pb(4),
    ],
};

/// `CustomResourceDefinitionCondition`.
pub static CONDITION: Struct = Struct {
    openapi_name: name!("CustomResourceDefinitionCondition"),
    atomic: false,
    description: "CustomResourceDefinitionCondition contains details for the current condition of this pod.",
    fields: &[
        req("type", Type::String, "type is the type of the condition. Types include Established, NamesAccepted and Terminating.").go("v1.CustomResourceDefinitionConditionType").pb(1),
        req("status", Type::String, "status is the status of the condition. Can be True, False, Unknown.").go("v1.ConditionStatus").pb(2),
        f("lastTransitionTime", Type::DateTime, "lastTransitionTime last time the condition transitioned from one status to another.").pb(3),
        f("reason", Type::String, "reason is a unique, one-word, CamelCase reason for the condition's last transition.").pb(4),
        f("message", Type::String, "message is a human-readable message indicating details about last transition.").pb(5),
        f("observedGeneration", Type::Int64, "observedGeneration represents the .metadata.generation that the condition was set based upon. For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date with respect to the current state of the instance.").pb(6),
    ],
};

/// `JSONSchemaProps` as a type (statics: the struct refers to itself).
static PROPS_T: Type = Type::Object(&PROPS);
const JSON: Type = Type::Any;
const RULE_T: Type = Type::Object(&VALIDATION_RULE);

/// The array form of `JSONSchemaPropsOrArray`.
static PROPS_ARRAY: Type = Type::Array(&PROPS_T, ListType::Atomic);

/// `JSONSchemaPropsOrArray`.
pub static OR_ARRAY: OrType = OrType {
    openapi_name: name!("JSONSchemaPropsOrArray"),
    description: "JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.",
    go_name: "v1.JSONSchemaPropsOrArray",
    object: &PROPS,
    array: &PROPS_ARRAY,
    alt: OrAlt::Array,
};

/// `JSONSchemaPropsOrBool`.
pub static OR_BOOL: OrType = OrType {
    openapi_name: name!("JSONSchemaPropsOrBool"),
    description: "JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.",
    go_name: "v1.JSONSchemaPropsOrBool",
    object: &PROPS,
    array: &PROPS_ARRAY,
    alt: OrAlt::Bool,
};

/// `JSONSchemaPropsOrStringArray`.
pub static OR_STRINGS: OrType = OrType {
    openapi_name: name!("JSONSchemaPropsOrStringArray"),
    description: "JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.",
    go_name: "v1.JSONSchemaPropsOrStringArray",
    object: &PROPS,
    array: &STRINGS,
    alt: OrAlt::Strings,
};

static OR_STRINGS_T: Type = Type::Or(&OR_STRINGS);

/// `JSONSchemaProps` (most fields carry no doc comment).
pub static PROPS: Struct = Struct {
    openapi_name: name!("JSONSchemaProps"),
    atomic: false,
    description: "JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).",
    fields: &[
        f("id", Type::String, "").pb(1),
        f("$schema", Type::String, "").go("v1.JSONSchemaURL").pb(2),
        ptr("$ref", Type::String, "").pb(3),
        f("description", Type::String, "").pb(4),
        f("type", Type::String, "").pb(5),
        f("format", Type::String, "format is an OpenAPI v3 format string. Unknown formats are ignored.").pb(6),
        f("title", Type::String, "").pb(7),
        ptr("default", JSON, "default is a default value for undefined object fields. Defaulting is a beta feature under the CustomResourceDefaulting feature gate. Defaulting requires spec.preserveUnknownFields to be false.").pb(8),
        ptr("maximum", Type::Float64, "").pb(9),
        f("exclusiveMaximum", Type::Boolean, "").pb(10),
        ptr("minimum", Type::Float64, "").pb(11),
        f("exclusiveMinimum", Type::Boolean, "").pb(12),
        ptr("maxLength", Type::Int64, "").pb(13),
        ptr("minLength", Type::Int64, "").pb(14),
        f("pattern", Type::String, "").pb(15),
        ptr("maxItems", Type::Int64, "").pb(16),
        ptr("minItems", Type::Int64, "").pb(17),
        f("uniqueItems", Type::Boolean, "").pb(18),
        ptr("multipleOf", Type::Float64, "").pb(19),
        f("enum", Type::Array(&JSON, ListType::Atomic), "").pb(20),
        ptr("maxProperties", Type::Int64, "").pb(21),
        ptr("minProperties", Type::Int64, "").pb(22),
        f("required", STRINGS, "").pb(23),
        ptr("items", Type::Or(&OR_ARRAY), "").pb(24),
        f("allOf", Type::Array(&PROPS_T, ListType::Atomic), "").pb(25),
        f("oneOf", Type::Array(&PROPS_T, ListType::Atomic), "").pb(26),
        f("anyOf", Type::Array(&PROPS_T, ListType::Atomic), "").pb(27),
        ptr("not", Type::Object(&PROPS), "").pb(28),
        f("properties", Type::Map(&PROPS_T), "").pb(29),
        ptr("additionalProperties", Type::Or(&OR_BOOL), "").pb(30),
        f("patternProperties", Type::Map(&PROPS_T), "").pb(31),
        f("dependencies", Type::Map(&OR_STRINGS_T), "").pb(32),
        ptr("additionalItems", Type::Or(&OR_BOOL), "").pb(33),
        f("definitions", Type::Map(&PROPS_T), "").pb(34),
        ptr("externalDocs", Type::Object(&EXTERNAL_DOCS), "").pb(35),
        ptr("example", JSON, "").pb(36),
        f("nullable", Type::Boolean, "").pb(37),
        ptr("x-kubernetes-preserve-unknown-fields", Type::Boolean, "x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema. This affects fields recursively, but switches back to normal pruning behaviour if nested properties or additionalProperties are specified in the schema. This can either be true or undefined. False is forbidden.").pb(38),
        f("x-kubernetes-embedded-resource", Type::Boolean, "x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to further restrict the embedded object. kind, apiVersion and metadata are validated automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have to be if the object is fully specified (up to kind, apiVersion, metadata).").pb(39),
        f("x-kubernetes-int-or-string", Type::Boolean, "x-kubernetes-int-or-string specifies that this value is either an integer or a string. If this is true, an empty type is allowed and type as child of anyOf is permitted if following one of the following patterns:\n\n1) anyOf:\n   - type: integer\n   - type: string\n2) allOf:\n   - anyOf:\n     - type: integer\n     - type: string\n   - ... zero or more").pb(40),
        f("x-kubernetes-list-map-keys", STRINGS, "x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.\n\nThis tag MUST only be used on lists that have the \"x-kubernetes-list-type\" extension set to \"map\". Also, the values specified for this attribute must be a scalar typed field of the child structure (no nesting is supported).\n\nThe properties specified must either be required or have a default value, to ensure those properties are present for all list items.").pb(41),
        ptr("x-kubernetes-list-type", Type::String, "x-kubernetes-list-type annotates an array to further describe its topology. This extension must only be used on lists and may have 3 possible values:\n\n1) `atomic`: the list is treated as a single entity, like a scalar.\n     Atomic lists will be entirely replaced when updated. This extension\n     may be used on any type of list (struct, scalar, ...).\n2) `set`:\n     Sets are lists that must not have multiple items with the same value. Each\n     value must be a scalar, an object with x-kubernetes-map-type `atomic` or an\n     array with x-kubernetes-list-type `atomic`.\n3) `map`:\n     These lists are like maps in that their elements have a non-index key\n     used to identify them. Order is preserved upon merge. The map tag\n     must only be used on a list with elements of type object.\nDefaults to atomic for arrays.").pb(42),
        ptr("x-kubernetes-map-type", Type::String, "x-kubernetes-map-type annotates an object to further describe its topology. This extension must only be used when type is object and may have 2 possible values:\n\n1) `granular`:\n     These maps are actual maps (key-value pairs) and each fields are independent\n     from each other (they can each be manipulated by separate actors). This is\n     the default behaviour for all maps.\n2) `atomic`: the list is treated as a single entity, like a scalar.\n     Atomic maps will be entirely replaced when updated.").pb(43),
        f("x-kubernetes-validations", Type::Array(&RULE_T, ListType::Map(&[MapKey::new("rule")])), "x-kubernetes-validations describes a list of validation rules written in the CEL expression language.").pb(44),
    ],
};

/// `ExternalDocumentation`.
pub static EXTERNAL_DOCS: Struct = Struct {
    openapi_name: name!("ExternalDocumentation"),
    atomic: false,
    description:
        "ExternalDocumentation allows referencing an external resource for extended documentation.",
    fields: &[
        f("description", Type::String, "").pb(1),
        f("url", Type::String, "").pb(2),
    ],
};

/// `ValidationRule`.
pub static VALIDATION_RULE: Struct = Struct {
    openapi_name: name!("ValidationRule"),
    atomic: false,
    description: "ValidationRule describes a validation rule written in the CEL expression language.",
    fields: &[
        req("rule", Type::String, "Rule represents the expression which will be evaluated by CEL. ref: https://github.com/google/cel-spec The Rule is scoped to the location of the x-kubernetes-validations extension in the schema. The `self` variable in the CEL expression is bound to the scoped value.").pb(1),
        f("message", Type::String, "Message represents the message displayed when validation fails. The message is required if the Rule contains line breaks. The message must not contain line breaks. If unset, the message is \"failed rule: {Rule}\". e.g. \"must be greater than 1\"").pb(2),
        f("messageExpression", Type::String, "MessageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails. Since messageExpression is used as a failure message, it must evaluate to a string. If both message and messageExpression are present on a rule, then messageExpression will be used if validation fails.").pb(3),
        ptr("reason", Type::String, "reason provides a machine-readable validation failure reason that is returned to the caller when a request fails this validation rule. The HTTP status code returned to the caller will match the reason of the reason of the first failed validation rule. The currently supported reasons are: \"FieldValueInvalid\", \"FieldValueForbidden\", \"FieldValueRequired\", \"FieldValueDuplicate\". If not set, default to use \"FieldValueInvalid\". All future added reasons must be accepted by clients when reading this value and unknown reasons should be treated as FieldValueInvalid.").go("v1.FieldValueErrorReason").pb(4),
        f("fieldPath", Type::String, "fieldPath represents the field path returned when the validation fails. It must be a relative JSON path (i.e. with array notation) scoped to the location of this x-kubernetes-validations extension in the schema and refer to an existing field. e.g. when validation checks if a specific attribute `foo` under a map `testMap`, the fieldPath could be set to `.testMap.foo` If the validation checks two lists must have unique attributes, the fieldPath could be set to either of the list: e.g. `.testList` It does not support list numeric index. It supports child operation to refer to an existing field currently. Refer to [JSONPath support in Kubernetes](https://kubernetes.io/docs/reference/kubectl/jsonpath/) for more info. Numeric index of array is not supported. For field name which contains special characters, use `['specialName']` to refer the field name. e.g. for attribute `foo.34$` appears in a list `testList`, the fieldPath could be set to `.testList['foo.34$']`").pb(5),
        ptr("optionalOldSelf", Type::Boolean, "optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value.").pb(6),
    ],
};
