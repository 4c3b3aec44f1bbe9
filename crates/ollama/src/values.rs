//! The values Ollama's templates see, as Go values on the `gotmpl` value
//! model: `templateMessage`, `templateTool` and friends (template.go), and
//! `api.ToolProperty`, `api.PropertyType`, `api.ToolPropertiesMap`
//! (api/types.go), with their `String()` and `MarshalJSON` methods, so that
//! printing, ranging and `json` behave exactly as in Go.

use std::sync::{Arc, OnceLock};

use gotmpl::encoding_json;
use gotmpl::value::{
    FieldDef, FuncType, IntType, Method, NamedType, NativeFn, Pointer, StructType, Type, UintType,
};
use gotmpl::Value;
use serde_json::Value as Json;

use crate::api;

fn string_method(name: &str, imp: Arc<NativeFn>) -> Method {
    Method {
        name: name.to_string(),
        pointer_receiver: false,
        sig: Arc::new(FuncType {
            params: vec![],
            variadic: false,
            results: vec![Type::String],
        }),
        imp,
    }
}

/// `json.Marshal(v)` as a string; `""` on error (Ollama ignores errors).
pub fn json_string(v: &Value) -> String {
    encoding_json::marshal(v).unwrap_or_default()
}

fn marshal_method(name: &str, f: fn(&Value) -> String) -> Method {
    string_method(
        name,
        Arc::new(move |args: &[Value]| Ok(Value::string(f(&args[0])))),
    )
}

fn is_nil_map(v: &Value) -> bool {
    matches!(v.underlying(), Value::Map(m) if m.is_nil)
}

/// All the types, built once.
pub struct Types {
    /// `api.ImageData` (`[]byte`)
    pub image_data: Type,
    /// `api.PropertyType` (`[]string`)
    pub property_type: Type,
    /// `api.ToolProperty`
    pub tool_property: Arc<StructType>,
    /// `api.ToolPropertiesMap`
    pub tool_properties_map: Arc<StructType>,
    /// the ordered map inside it
    pub ordered_props: Type,
    /// `template.templateArgs`
    pub template_args: Arc<NamedType>,
    /// `template.templateProperties`
    pub template_properties: Arc<NamedType>,
    /// `template.templateToolCallFunction`
    pub tool_call_function: Arc<StructType>,
    /// `template.templateToolCall`
    pub tool_call: Arc<StructType>,
    /// `template.templateMessage`
    pub message: Arc<StructType>,
    /// `template.templateToolFunctionParameters`
    pub tool_function_parameters: Arc<StructType>,
    /// `template.templateToolFunction`
    pub tool_function: Arc<StructType>,
    /// `template.templateTool`
    pub tool: Arc<StructType>,
    /// `template.templateTools`
    pub tools: Arc<NamedType>,
}

fn any() -> Type {
    Type::Interface
}

fn slice_of(t: Type) -> Type {
    Type::Slice(Arc::new(t))
}

/// The shared type table.
pub fn types() -> &'static Types {
    static TYPES: OnceLock<Types> = OnceLock::new();
    TYPES.get_or_init(build_types)
}

fn build_types() -> Types {
    let image_data = Type::Named(Arc::new(NamedType {
        name: "api.ImageData".into(),
        underlying: slice_of(Type::Uint(UintType::U8)),
        methods: vec![],
    }));
    let property_type = Type::Named(Arc::new(NamedType {
        name: "api.PropertyType".into(),
        underlying: slice_of(Type::String),
        methods: vec![
            marshal_method("MarshalJSON", |v| {
                let items = strings_of(v);
                if items.len() == 1 {
                    json_string(&Value::string(items[0].as_str()))
                } else {
                    json_string(v.underlying())
                }
            }),
            marshal_method("String", |v| {
                let items = strings_of(v);
                match items.len() {
                    0 => String::new(),
                    1 => items[0].clone(),
                    _ => gotmpl::gofmt::sprint(std::slice::from_ref(v.underlying())),
                }
            }),
        ],
    }));
    // The ordered map behind *ToolPropertiesMap: a list of entries.
    let entry = Arc::new(StructType {
        name: "orderedmap.Pair[string,github.com/ollama/ollama/api.ToolProperty]".into(),
        fields: vec![
            FieldDef::new("Key", Type::String),
            FieldDef::new("Value", Type::Interface),
        ],
        methods: vec![],
    });
    let ordered_props = slice_of(Type::Struct(entry));
    let ordered_map_ptr = Type::Pointer(Arc::new(ordered_props.clone()));
    let tool_properties_map = Arc::new(StructType {
        name: "api.ToolPropertiesMap".into(),
        fields: vec![FieldDef::new("om", ordered_map_ptr)],
        methods: vec![marshal_method("MarshalJSON", |v| {
            let Value::Struct(s) = v.underlying() else {
                return "null".into();
            };
            match &s.fields[0] {
                Value::Pointer(p) => match &p.target {
                    Some(Value::Slice(entries)) => {
                        let mut out = String::from("{");
                        for (i, e) in entries.items().iter().enumerate() {
                            let Value::Struct(pair) = e else { continue };
                            if i > 0 {
                                out.push(',');
                            }
                            encoding_json::encode_string(
                                &mut out,
                                pair.fields[0].as_str().unwrap_or(""),
                                true,
                            );
                            out.push(':');
                            out.push_str(&json_string(&pair.fields[1]));
                        }
                        out.push('}');
                        out
                    }
                    _ => "null".into(),
                },
                _ => "null".into(),
            }
        })],
    });
    let tool_property = Arc::new(StructType {
        name: "api.ToolProperty".into(),
        fields: vec![
            // AnyOf is []ToolProperty; a self-referential type is described
            // as []interface {} holding ToolProperty values (printing and
            // JSON are the same).
            FieldDef::tagged("AnyOf", slice_of(any()), r#"json:"anyOf,omitempty""#),
            FieldDef::tagged("Type", property_type.clone(), r#"json:"type,omitempty""#),
            FieldDef::tagged("Items", any(), r#"json:"items,omitempty""#),
            FieldDef::tagged(
                "Description",
                Type::String,
                r#"json:"description,omitempty""#,
            ),
            FieldDef::tagged("Enum", slice_of(any()), r#"json:"enum,omitempty""#),
            FieldDef::tagged(
                "Properties",
                Type::Pointer(Arc::new(Type::Struct(tool_properties_map.clone()))),
                r#"json:"properties,omitempty""#,
            ),
            FieldDef::tagged(
                "Required",
                slice_of(Type::String),
                r#"json:"required,omitempty""#,
            ),
        ],
        methods: vec![],
    });
    let template_args = Arc::new(NamedType {
        name: "template.templateArgs".into(),
        underlying: Type::Map(Arc::new(Type::String), Arc::new(any())),
        methods: vec![marshal_method("String", |v| {
            if is_nil_map(v) {
                "{}".into()
            } else {
                json_string(v)
            }
        })],
    });
    let template_properties = Arc::new(NamedType {
        name: "template.templateProperties".into(),
        underlying: Type::Map(
            Arc::new(Type::String),
            Arc::new(Type::Struct(tool_property.clone())),
        ),
        methods: vec![marshal_method("String", |v| {
            if is_nil_map(v) {
                "{}".into()
            } else {
                json_string(v)
            }
        })],
    });
    let tool_call_function = Arc::new(StructType {
        name: "template.templateToolCallFunction".into(),
        fields: vec![
            FieldDef::new("Index", Type::Int(IntType::Int)),
            FieldDef::new("Name", Type::String),
            FieldDef::new("Arguments", Type::Named(template_args.clone())),
        ],
        methods: vec![],
    });
    let tool_call = Arc::new(StructType {
        name: "template.templateToolCall".into(),
        fields: vec![
            FieldDef::new("ID", Type::String),
            FieldDef::new("Function", Type::Struct(tool_call_function.clone())),
        ],
        methods: vec![],
    });
    let message = Arc::new(StructType {
        name: "template.templateMessage".into(),
        fields: vec![
            FieldDef::new("Role", Type::String),
            FieldDef::new("Content", Type::String),
            FieldDef::new("Thinking", Type::String),
            FieldDef::new("Images", slice_of(image_data.clone())),
            FieldDef::new("ToolCalls", slice_of(Type::Struct(tool_call.clone()))),
            FieldDef::new("ToolName", Type::String),
            FieldDef::new("ToolCallID", Type::String),
        ],
        methods: vec![],
    });
    let tool_function_parameters = Arc::new(StructType {
        name: "template.templateToolFunctionParameters".into(),
        fields: vec![
            FieldDef::tagged("Type", Type::String, r#"json:"type""#),
            FieldDef::tagged("Defs", any(), r#"json:"$defs,omitempty""#),
            FieldDef::tagged("Items", any(), r#"json:"items,omitempty""#),
            FieldDef::tagged(
                "Required",
                slice_of(Type::String),
                r#"json:"required,omitempty""#,
            ),
            FieldDef::tagged(
                "Properties",
                Type::Named(template_properties.clone()),
                r#"json:"properties""#,
            ),
        ],
        methods: vec![],
    });
    let tool_function = Arc::new(StructType {
        name: "template.templateToolFunction".into(),
        fields: vec![
            FieldDef::tagged("Name", Type::String, r#"json:"name""#),
            FieldDef::tagged("Description", Type::String, r#"json:"description""#),
            FieldDef::tagged(
                "Parameters",
                Type::Struct(tool_function_parameters.clone()),
                r#"json:"parameters""#,
            ),
        ],
        methods: vec![],
    });
    let tool = Arc::new(StructType {
        name: "template.templateTool".into(),
        fields: vec![
            FieldDef::tagged("Type", Type::String, r#"json:"type""#),
            FieldDef::tagged("Items", any(), r#"json:"items,omitempty""#),
            FieldDef::tagged(
                "Function",
                Type::Struct(tool_function.clone()),
                r#"json:"function""#,
            ),
        ],
        methods: vec![marshal_method("String", |v| {
            // Marshal the struct itself (String is not MarshalJSON).
            json_string(v)
        })],
    });
    let tools = Arc::new(NamedType {
        name: "template.templateTools".into(),
        underlying: slice_of(Type::Struct(tool.clone())),
        methods: vec![marshal_method("String", json_string)],
    });
    Types {
        image_data,
        property_type,
        tool_property,
        tool_properties_map,
        ordered_props,
        template_args,
        template_properties,
        tool_call_function,
        tool_call,
        message,
        tool_function_parameters,
        tool_function,
        tool,
        tools,
    }
}

fn strings_of(v: &Value) -> Vec<String> {
    match v.underlying() {
        Value::Slice(s) => s
            .items()
            .iter()
            .map(|x| x.as_str().unwrap_or("").to_string())
            .collect(),
        _ => Vec::new(),
    }
}

fn string_slice(items: &Option<Vec<String>>) -> Value {
    match items {
        None => slice_of(Type::String).zero(),
        Some(v) => Value::slice(
            Type::String,
            v.iter().map(|s| Value::string(s.as_str())).collect(),
        ),
    }
}

fn json_any(v: &Option<Json>) -> Value {
    match v {
        None => Value::Nil,
        Some(j) => Value::from_json_elem(j),
    }
}

/// A JSON object as Go's `map[string]any` (nil when absent, as `ToMap`
/// returns for a nil ordered map; `{}` stays an empty map).
fn args_map(args: &api::OrderedArgs) -> Value {
    let t = types();
    let inner = match args {
        Some(m) => Value::map(
            Type::String,
            any(),
            m.iter()
                .map(|(k, v)| (Value::string(k.as_str()), Value::from_json_elem(v)))
                .collect(),
        ),
        _ => Type::Map(Arc::new(Type::String), Arc::new(any())).zero(),
    };
    Value::Named(t.template_args.clone(), Box::new(inner))
}

/// An `api.ToolProperty` value.
pub fn tool_property(p: &api::ToolProperty) -> Value {
    let t = types();
    let any_of = if p.any_of.is_empty() {
        slice_of(any()).zero()
    } else {
        Value::slice(any(), p.any_of.iter().map(tool_property).collect())
    };
    let type_ = Value::Named(
        match &t.property_type {
            Type::Named(n) => n.clone(),
            _ => unreachable!(),
        },
        Box::new(if p.type_.is_empty() {
            slice_of(Type::String).zero()
        } else {
            Value::slice(
                Type::String,
                p.type_.iter().map(|s| Value::string(s.as_str())).collect(),
            )
        }),
    );
    let enum_ = match &p.enum_ {
        None => slice_of(any()).zero(),
        Some(v) => Value::slice(any(), v.iter().map(Value::from_json_elem).collect()),
    };
    let properties = match &p.properties {
        None => Type::Pointer(Arc::new(Type::Struct(t.tool_properties_map.clone()))).zero(),
        Some(props) => Value::pointer_to(properties_map(props)),
    };
    Value::new_struct(
        t.tool_property.clone(),
        vec![
            any_of,
            type_,
            json_any(&p.items),
            Value::string(p.description.as_str()),
            enum_,
            properties,
            string_slice(&p.required),
        ],
    )
}

/// An `api.ToolPropertiesMap` (ordered).
fn properties_map(props: &[(String, api::ToolProperty)]) -> Value {
    let t = types();
    let Type::Slice(entry_ty) = &t.ordered_props else {
        unreachable!()
    };
    let Type::Struct(entry) = &**entry_ty else {
        unreachable!()
    };
    let entries: Vec<Value> = props
        .iter()
        .map(|(k, p)| {
            Value::new_struct(
                entry.clone(),
                vec![Value::string(k.as_str()), tool_property(p)],
            )
        })
        .collect();
    let list = Value::slice((**entry_ty).clone(), entries);
    let om = Value::Pointer(Arc::new(Pointer {
        ty: Type::Pointer(Arc::new(t.ordered_props.clone())),
        target: Some(list),
        addr: gotmpl::value::fake_addr(64),
    }));
    Value::new_struct(t.tool_properties_map.clone(), vec![om])
}

/// `templateProperties(props.ToMap())`.
fn template_properties(props: &Option<Vec<(String, api::ToolProperty)>>) -> Value {
    let t = types();
    let inner = match props {
        Some(p) => Value::map(
            Type::String,
            Type::Struct(t.tool_property.clone()),
            p.iter()
                .map(|(k, v)| (Value::string(k.as_str()), tool_property(v)))
                .collect(),
        ),
        _ => Type::Map(
            Arc::new(Type::String),
            Arc::new(Type::Struct(t.tool_property.clone())),
        )
        .zero(),
    };
    Value::Named(t.template_properties.clone(), Box::new(inner))
}

/// `convertToolsForTemplate`: `None` gives a nil `templateTools`.
pub fn convert_tools(tools: Option<&[api::Tool]>) -> Value {
    let t = types();
    let elem = Type::Struct(t.tool.clone());
    let inner = match tools {
        None => slice_of(elem).zero(),
        Some(list) => Value::slice(
            elem,
            list.iter()
                .map(|tool| {
                    let params = &tool.function.parameters;
                    let parameters = Value::new_struct(
                        t.tool_function_parameters.clone(),
                        vec![
                            Value::string(params.type_.as_str()),
                            json_any(&params.defs),
                            json_any(&params.items),
                            string_slice(&params.required),
                            template_properties(&params.properties),
                        ],
                    );
                    let function = Value::new_struct(
                        t.tool_function.clone(),
                        vec![
                            Value::string(tool.function.name.as_str()),
                            Value::string(tool.function.description.as_str()),
                            parameters,
                        ],
                    );
                    Value::new_struct(
                        t.tool.clone(),
                        vec![
                            Value::string(tool.type_.as_str()),
                            json_any(&tool.items),
                            function,
                        ],
                    )
                })
                .collect(),
        ),
    };
    Value::Named(t.tools.clone(), Box::new(inner))
}

fn images(imgs: &[api::ImageData]) -> Value {
    let t = types();
    if imgs.is_empty() {
        return slice_of(t.image_data.clone()).zero();
    }
    let Type::Named(named) = &t.image_data else {
        unreachable!()
    };
    Value::slice(
        t.image_data.clone(),
        imgs.iter()
            .map(|img| {
                let bytes = img
                    .0
                    .iter()
                    .map(|&b| Value::Uint(b as u64, UintType::U8))
                    .collect();
                Value::Named(
                    named.clone(),
                    Box::new(Value::slice(Type::Uint(UintType::U8), bytes)),
                )
            })
            .collect(),
    )
}

/// `convertMessagesForTemplate`: `[]*templateMessage`.
pub fn convert_messages(msgs: &[api::Message]) -> Value {
    let t = types();
    let ptr_ty = Type::Pointer(Arc::new(Type::Struct(t.message.clone())));
    Value::slice(
        ptr_ty,
        msgs.iter()
            .map(|m| {
                let calls = if m.tool_calls.is_empty() {
                    slice_of(Type::Struct(t.tool_call.clone())).zero()
                } else {
                    Value::slice(
                        Type::Struct(t.tool_call.clone()),
                        m.tool_calls
                            .iter()
                            .map(|c| {
                                let f = Value::new_struct(
                                    t.tool_call_function.clone(),
                                    vec![
                                        Value::int(c.function.index),
                                        Value::string(c.function.name.as_str()),
                                        args_map(&c.function.arguments),
                                    ],
                                );
                                Value::new_struct(
                                    t.tool_call.clone(),
                                    vec![Value::string(c.id.as_str()), f],
                                )
                            })
                            .collect(),
                    )
                };
                Value::pointer_to(Value::new_struct(
                    t.message.clone(),
                    vec![
                        Value::string(m.role.as_str()),
                        Value::string(m.content.as_str()),
                        Value::string(m.thinking.as_str()),
                        images(&m.images),
                        calls,
                        Value::string(m.tool_name.as_str()),
                        Value::string(m.tool_call_id.as_str()),
                    ],
                ))
            })
            .collect(),
    )
}

/// A `map[string]any` of template values, as Ollama builds them.
pub fn values_map(entries: Vec<(&str, Value)>) -> Value {
    Value::map(
        Type::String,
        any(),
        entries
            .into_iter()
            .map(|(k, v)| (Value::string(k), v))
            .collect(),
    )
}

/// Whether a value is an `api.ToolProperty` or a non-nil `*api.ToolProperty`
/// (for `toTypeScriptType`), and its TypeScript type.
pub fn typescript_type(v: &Value) -> String {
    let prop = match v {
        Value::Struct(s) if s.ty.name == "api.ToolProperty" => Some(s.clone()),
        Value::Pointer(p) => match &p.target {
            Some(Value::Struct(s)) if s.ty.name == "api.ToolProperty" => Some(s.clone()),
            _ => None,
        },
        _ => None,
    };
    match prop {
        Some(s) => property_from_value(&Value::Struct(s)).to_typescript_type(),
        None => "any".into(),
    }
}

/// Reads back the parts of an `api.ToolProperty` value `ToTypeScriptType` needs.
fn property_from_value(v: &Value) -> api::ToolProperty {
    let Value::Struct(s) = v else {
        return api::ToolProperty::default();
    };
    let any_of = match &s.fields[0] {
        Value::Slice(list) => list.items().iter().map(property_from_value).collect(),
        _ => Vec::new(),
    };
    api::ToolProperty {
        any_of,
        type_: strings_of(&s.fields[1]),
        ..api::ToolProperty::default()
    }
}
