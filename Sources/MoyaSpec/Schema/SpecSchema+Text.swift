// Made by scripts/spec-schema.sh from schema/moya-cli-spec.schema.json; edit that file.
extension SpecSchema {
    /// The text of schema/moya-cli-spec.schema.json.
    static let json = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://raw.githubusercontent.com/moya-cli/moya-cli/main/schema/moya-cli-spec.schema.json",
          "title": "moya-cli spec",
          "description": "A moya-cli spec: one service in the terms of the Moya network layer, a base URL and targets with a path, a method, a task, headers, sample data and a validation type. docs/spec-format.md has the whole format.",
          "type": "object",
          "properties": {
            "service": {
              "$ref": "#/$defs/name",
              "description": "The name used in SERVICE.TARGET; the file's name by default."
            },
            "baseURL": {
              "type": "string",
              "description": "An absolute http, https, ws or wss URL; it may carry a path and a query. A ws or wss one makes its targets WebSockets."
            },
            "headers": {
              "$ref": "#/$defs/headers"
            },
            "validation": {
              "$ref": "#/$defs/validation"
            },
            "timeout": {
              "$ref": "#/$defs/seconds"
            },
            "retry": {
              "$ref": "#/$defs/retry"
            },
            "followRedirects": {
              "type": "boolean",
              "default": true,
              "description": "false returns a 3xx response as it is."
            },
            "stub": {
              "$ref": "#/$defs/stub"
            },
            "auth": {
              "$ref": "#/$defs/auth"
            },
            "secrets": {
              "type": "object",
              "description": "Where each ${NAME} comes from when the environment does not set it: pass, the desktop keyring, a dotenv file or a command. Read only when a call that needs it is sent, and a secret everywhere. docs/secrets.md.",
              "propertyNames": {
                "type": "string",
                "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"
              },
              "additionalProperties": {
                "$ref": "#/$defs/secretSource"
              }
            },
            "environments": {
              "type": "object",
              "description": "Named overrides of baseURL and headers, chosen with --env NAME.",
              "additionalProperties": {
                "$ref": "#/$defs/environment"
              }
            },
            "targets": {
              "type": "object",
              "description": "Target names to targets.",
              "propertyNames": {
                "$ref": "#/$defs/name"
              },
              "additionalProperties": {
                "$ref": "#/$defs/target"
              }
            },
            "flows": {
              "type": "object",
              "description": "Flow names to flows: steps that call targets in order.",
              "propertyNames": {
                "$ref": "#/$defs/name"
              },
              "additionalProperties": {
                "$ref": "#/$defs/flow"
              }
            },
            "mcp": {
              "type": "object",
              "description": "How moya-cli mcp names the service's tools.",
              "properties": {
                "prefix": {
                  "type": "string",
                  "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,31}$",
                  "description": "What the tools' names start with, before the dot: the service's name by default, shortened when a tool's name would be over 64 characters."
                }
              },
              "additionalProperties": false
            }
          },
          "anyOf": [
            {
              "required": [
                "baseURL",
                "targets"
              ]
            },
            {
              "description": "A file of flows alone, over other files' services: no targets, and so no base URL needed.",
              "required": [
                "flows"
              ],
              "not": {
                "required": [
                  "targets"
                ]
              }
            }
          ],
          "additionalProperties": false,
          "$defs": {
            "name": {
              "title": "Name",
              "type": "string",
              "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"
            },
            "template": {
              "title": "Template",
              "description": "Text that may hold {param} references and ${VAR} environment values.",
              "type": [
                "string",
                "number",
                "boolean"
              ]
            },
            "jsonPath": {
              "title": "JSON path",
              "type": "string",
              "pattern": "^\\$",
              "description": "An RFC 9535 JSON path, such as $.items[0].id."
            },
            "duration": {
              "title": "Duration",
              "description": "A duration: 500ms, 2s or a number of seconds.",
              "anyOf": [
                {
                  "type": "number",
                  "exclusiveMinimum": 0
                },
                {
                  "type": "string",
                  "pattern": "^[0-9.eE+-]+(ms|s)?$"
                }
              ]
            },
            "seconds": {
              "title": "Seconds",
              "type": "number",
              "exclusiveMinimum": 0,
              "maximum": 604800,
              "description": "Seconds, above 0 and at most 604800 (a week)."
            },
            "retry": {
              "title": "Retries",
              "type": "integer",
              "minimum": 0,
              "maximum": 100,
              "description": "How many times a failed request is retried, 0 to 100."
            },
            "headerValue": {
              "title": "Header value",
              "description": "A value template, or { value: ..., secret: true } to make the whole value a secret, printed as ••••.",
              "anyOf": [
                {
                  "$ref": "#/$defs/template"
                },
                {
                  "type": "object",
                  "properties": {
                    "value": {
                      "$ref": "#/$defs/template"
                    },
                    "secret": {
                      "type": "boolean",
                      "default": false
                    }
                  },
                  "required": [
                    "value"
                  ],
                  "additionalProperties": false
                }
              ]
            },
            "headers": {
              "title": "Headers",
              "type": "object",
              "description": "Header name to value, sent in the order written.",
              "propertyNames": {
                "pattern": "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"
              },
              "additionalProperties": {
                "$ref": "#/$defs/headerValue"
              }
            },
            "cookies": {
              "title": "Cookies",
              "type": "object",
              "description": "Cookie name to value template, sent as one Cookie header.",
              "propertyNames": {
                "pattern": "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"
              },
              "additionalProperties": {
                "$ref": "#/$defs/headerValue"
              }
            },
            "validation": {
              "title": "Validation",
              "description": "Which statuses count as success: none, successCodes (200-299), successAndRedirectCodes (200-399) or a list of codes.",
              "default": "successCodes",
              "anyOf": [
                {
                  "enum": [
                    "none",
                    "successCodes",
                    "successAndRedirectCodes"
                  ]
                },
                {
                  "type": "array",
                  "items": {
                    "type": "integer",
                    "minimum": 100,
                    "maximum": 599
                  }
                }
              ]
            },
            "stub": {
              "title": "Stub behaviour",
              "description": "The default stub behaviour: never, immediate or { delayed: SECONDS }.",
              "default": "never",
              "anyOf": [
                {
                  "enum": [
                    "never",
                    "immediate"
                  ]
                },
                {
                  "type": "object",
                  "properties": {
                    "delayed": {
                      "type": "number",
                      "minimum": 0,
                      "maximum": 604800
                    }
                  },
                  "required": [
                    "delayed"
                  ],
                  "additionalProperties": false
                }
              ]
            },
            "auth": {
              "title": "Auth",
              "description": "Credentials: bearer, basic, custom, a login, or none on a target.",
              "anyOf": [
                {
                  "const": "none"
                },
                {
                  "type": "object",
                  "properties": {
                    "bearer": {
                      "type": "string",
                      "description": "Authorization: Bearer TOKEN."
                    }
                  },
                  "required": [
                    "bearer"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "basic": {
                      "type": "object",
                      "properties": {
                        "user": {
                          "type": "string"
                        },
                        "password": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "user",
                        "password"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "basic"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "custom": {
                      "type": "object",
                      "properties": {
                        "scheme": {
                          "type": "string"
                        },
                        "token": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "scheme",
                        "token"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "custom"
                  ],
                  "additionalProperties": false
                },
                {
                  "$ref": "#/$defs/loginAuth"
                }
              ]
            },
            "loginAuth": {
              "title": "Login auth",
              "type": "object",
              "description": "A token from calling a login target.",
              "properties": {
                "login": {
                  "$ref": "#/$defs/login"
                },
                "scheme": {
                  "const": "bearer",
                  "description": "Authorization: Bearer TOKEN, the default."
                },
                "custom": {
                  "type": "object",
                  "properties": {
                    "scheme": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "scheme"
                  ],
                  "additionalProperties": false,
                  "description": "Authorization: SCHEME TOKEN."
                },
                "header": {
                  "type": "string",
                  "description": "A header of its own that carries the token."
                },
                "refreshOn": {
                  "type": "array",
                  "items": {
                    "type": "integer",
                    "minimum": 100,
                    "maximum": 599
                  },
                  "default": [
                    401
                  ],
                  "description": "Statuses that log in again and replay the request once."
                },
                "cache": {
                  "type": "boolean",
                  "default": false,
                  "description": "Keep the token between runs, under $XDG_CACHE_HOME/moya-cli/."
                }
              },
              "required": [
                "login"
              ],
              "additionalProperties": false
            },
            "login": {
              "title": "Login",
              "type": "object",
              "properties": {
                "call": {
                  "type": "string",
                  "description": "The target that answers with a token: a target of this service, or SERVICE.TARGET."
                },
                "params": {
                  "type": "object",
                  "description": "Its params: literal values and ${VAR}, which are secrets."
                },
                "token": {
                  "$ref": "#/$defs/jsonPath",
                  "description": "A JSON path to the token."
                },
                "expiresIn": {
                  "$ref": "#/$defs/jsonPath",
                  "description": "A JSON path to the token's lifetime in seconds."
                }
              },
              "required": [
                "call",
                "token"
              ],
              "additionalProperties": false
            },
            "paramType": {
              "title": "Param type",
              "description": "A type name: string, int, number, bool, file, object (a flat object given as JSON text), or [T] for a repeatable param.",
              "anyOf": [
                {
                  "enum": [
                    "string",
                    "int",
                    "number",
                    "bool",
                    "file",
                    "object",
                    "[string]",
                    "[int]",
                    "[number]",
                    "[bool]",
                    "[file]"
                  ]
                },
                {
                  "type": "array",
                  "items": {
                    "enum": [
                      "string",
                      "int",
                      "number",
                      "bool",
                      "file"
                    ]
                  },
                  "minItems": 1,
                  "maxItems": 1
                }
              ]
            },
            "param": {
              "title": "Param",
              "anyOf": [
                {
                  "$ref": "#/$defs/paramType"
                },
                {
                  "type": "object",
                  "properties": {
                    "type": {
                      "anyOf": [
                        {
                          "$ref": "#/$defs/paramType"
                        },
                        {
                          "enum": [
                            "enum",
                            "[enum]"
                          ]
                        }
                      ]
                    },
                    "default": {
                      "description": "The value when the call gives none."
                    },
                    "description": {
                      "type": "string"
                    },
                    "optional": {
                      "type": "boolean",
                      "default": false,
                      "description": "A param with no default that is not optional is required."
                    },
                    "secret": {
                      "type": "boolean",
                      "default": false,
                      "description": "Printed as •••• in logs, --curl and --dry-run."
                    },
                    "enum": {
                      "description": "The values: a list, or a mapping of the keys the command line takes to the values sent.",
                      "anyOf": [
                        {
                          "type": "array",
                          "items": {
                            "type": [
                              "string",
                              "number",
                              "boolean"
                            ]
                          },
                          "minItems": 1
                        },
                        {
                          "type": "object",
                          "minProperties": 1,
                          "additionalProperties": {
                            "type": [
                              "string",
                              "number",
                              "boolean"
                            ]
                          }
                        }
                      ]
                    },
                    "style": {
                      "enum": [
                        "form",
                        "spaceDelimited",
                        "pipeDelimited",
                        "simple",
                        "label",
                        "matrix",
                        "deepObject"
                      ],
                      "description": "OpenAPI's style for an array or object param where it stands alone (a scalar takes label or matrix, its prefix)."
                    },
                    "explode": {
                      "type": "boolean",
                      "description": "Whether items or members are pairs of their own; true for form and deepObject, false for the others by default."
                    },
                    "allowEmptyValue": {
                      "type": "boolean",
                      "default": false,
                      "description": "Whether serve takes a query value sent empty as the param left out."
                    },
                    "minimum": {
                      "type": "number"
                    },
                    "maximum": {
                      "type": "number"
                    },
                    "exclusiveMinimum": {
                      "type": "number"
                    },
                    "exclusiveMaximum": {
                      "type": "number"
                    },
                    "multipleOf": {
                      "type": "number",
                      "exclusiveMinimum": 0
                    },
                    "minLength": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxLength": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "pattern": {
                      "type": "string",
                      "description": "An ECMA-262 regular expression, unanchored."
                    },
                    "format": {
                      "type": "string"
                    },
                    "minItems": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxItems": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "uniqueItems": {
                      "type": "boolean"
                    }
                  },
                  "additionalProperties": false,
                  "anyOf": [
                    {
                      "required": [
                        "type"
                      ]
                    },
                    {
                      "required": [
                        "enum"
                      ]
                    }
                  ]
                }
              ]
            },
            "params": {
              "title": "Params",
              "type": "object",
              "description": "The values a call takes, by name.",
              "propertyNames": {
                "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"
              },
              "additionalProperties": {
                "$ref": "#/$defs/param"
              }
            },
            "block": {
              "title": "Parameter block",
              "description": "A parameter block: a mapping (keys sorted), or a list of one-key mappings (order kept).",
              "anyOf": [
                {
                  "type": "object"
                },
                {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1
                  }
                }
              ]
            },
            "encoding": {
              "title": "Parameter encoding",
              "enum": [
                "url",
                "queryString",
                "httpBody",
                "json",
                "prettyJSON"
              ],
              "default": "url",
              "description": "url: the query for GET, HEAD and DELETE, a form body otherwise; queryString: always the query; httpBody: always a form body; json and prettyJSON: a JSON body."
            },
            "arrays": {
              "title": "Array style",
              "enum": [
                "brackets",
                "noBrackets",
                "indexInBrackets"
              ],
              "default": "brackets",
              "description": "How an array is written: a[]=1, a=1 or a[0]=1."
            },
            "bools": {
              "title": "Boolean style",
              "enum": [
                "numeric",
                "literal"
              ],
              "default": "numeric",
              "description": "How a boolean is written: 1 and 0, or true and false."
            },
            "task": {
              "title": "Task",
              "description": "How parameters and body are sent: plain, data, json, parameters, upload, multipart or download.",
              "default": "plain",
              "anyOf": [
                {
                  "const": "plain"
                },
                {
                  "type": "null"
                },
                {
                  "type": "object",
                  "properties": {
                    "data": {
                      "anyOf": [
                        {
                          "$ref": "#/$defs/template"
                        },
                        {
                          "type": "object",
                          "properties": {
                            "file": {
                              "type": "string"
                            }
                          },
                          "required": [
                            "file"
                          ],
                          "additionalProperties": false
                        }
                      ]
                    },
                    "contentType": {
                      "type": "string"
                    },
                    "query": {
                      "$ref": "#/$defs/block"
                    }
                  },
                  "required": [
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "json": {
                      "description": "Any YAML, sent as JSON, its members in the order written."
                    },
                    "query": {
                      "$ref": "#/$defs/block"
                    }
                  },
                  "required": [
                    "json"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "parameters": {
                      "$ref": "#/$defs/block"
                    },
                    "encoding": {
                      "$ref": "#/$defs/encoding"
                    },
                    "arrays": {
                      "$ref": "#/$defs/arrays"
                    },
                    "bools": {
                      "$ref": "#/$defs/bools"
                    },
                    "query": {
                      "$ref": "#/$defs/block"
                    }
                  },
                  "required": [
                    "parameters"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "upload": {
                      "type": "string",
                      "description": "The path of the file sent as the body."
                    },
                    "query": {
                      "$ref": "#/$defs/block"
                    }
                  },
                  "required": [
                    "upload"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "multipart": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "properties": {
                          "name": {
                            "type": "string"
                          },
                          "value": {
                            "$ref": "#/$defs/template"
                          },
                          "file": {
                            "type": "string"
                          },
                          "fileName": {
                            "type": "string"
                          },
                          "mimeType": {
                            "type": "string"
                          }
                        },
                        "required": [
                          "name"
                        ],
                        "additionalProperties": false,
                        "oneOf": [
                          {
                            "required": [
                              "value"
                            ]
                          },
                          {
                            "required": [
                              "file"
                            ]
                          }
                        ]
                      }
                    },
                    "query": {
                      "$ref": "#/$defs/block"
                    }
                  },
                  "required": [
                    "multipart"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "download": {
                      "type": "string",
                      "description": "Where the body is written."
                    },
                    "parameters": {
                      "$ref": "#/$defs/block"
                    },
                    "encoding": {
                      "$ref": "#/$defs/encoding"
                    },
                    "arrays": {
                      "$ref": "#/$defs/arrays"
                    },
                    "bools": {
                      "$ref": "#/$defs/bools"
                    }
                  },
                  "required": [
                    "download"
                  ],
                  "additionalProperties": false
                }
              ]
            },
            "sample": {
              "title": "Sample",
              "description": "What a stubbed call answers: a body, or a mapping with status, headers and one of body, json, file or events; or { error: E }.",
              "anyOf": [
                {
                  "type": [
                    "string",
                    "number",
                    "boolean"
                  ]
                },
                {
                  "type": "object",
                  "properties": {
                    "status": {
                      "type": "integer",
                      "minimum": 100,
                      "maximum": 599,
                      "default": 200
                    },
                    "headers": {
                      "$ref": "#/$defs/headers"
                    },
                    "body": {
                      "$ref": "#/$defs/template"
                    },
                    "json": {
                      "description": "Any YAML, answered as JSON."
                    },
                    "file": {
                      "type": "string",
                      "description": "A file beside the spec."
                    },
                    "events": {
                      "type": "array",
                      "maxItems": 100000,
                      "description": "A stream's events, written as the target's stream kind (SSE unless it says another); serve sends each after its delay.",
                      "items": {
                        "$ref": "#/$defs/sampleEvent"
                      }
                    },
                    "error": {
                      "enum": [
                        "timeout",
                        "notConnectedToInternet",
                        "cannotFindHost",
                        "cannotConnectToHost",
                        "networkConnectionLost",
                        "cancelled"
                      ]
                    },
                    "schema": {
                      "$ref": "#/$defs/schema"
                    }
                  },
                  "additionalProperties": false
                }
              ]
            },
            "sampleEvent": {
              "title": "Stream sample event",
              "type": "object",
              "properties": {
                "event": {
                  "type": "string",
                  "description": "The SSE event type."
                },
                "id": {
                  "type": "string",
                  "description": "The SSE event ID."
                },
                "data": {
                  "description": "Text as it is, any other value as JSON."
                },
                "retry": {
                  "type": "integer",
                  "minimum": 0,
                  "description": "The SSE reconnection time, in ms."
                },
                "delay": {
                  "$ref": "#/$defs/duration",
                  "description": "How long serve waits before sending it, up to an hour."
                }
              },
              "required": [
                "data"
              ],
              "additionalProperties": false
            },
            "schema": {
              "title": "JSON Schema",
              "description": "A JSON Schema (draft 2020-12 unless its $schema says otherwise), or a $ref to one in a file beside the spec.",
              "type": [
                "object",
                "boolean"
              ]
            },
            "predicate": {
              "title": "Predicate",
              "description": "A plain value means equality; a mapping holds predicates, all of which must hold.",
              "anyOf": [
                {
                  "not": {
                    "type": "object"
                  }
                },
                {
                  "type": "object",
                  "properties": {
                    "equals": {},
                    "exists": {
                      "type": "boolean"
                    },
                    "type": {
                      "enum": [
                        "string",
                        "number",
                        "integer",
                        "bool",
                        "array",
                        "object",
                        "null",
                        null
                      ]
                    },
                    "contains": {},
                    "matches": {
                      "type": "string"
                    },
                    "lt": {
                      "type": "number"
                    },
                    "le": {
                      "type": "number"
                    },
                    "gt": {
                      "type": "number"
                    },
                    "ge": {
                      "type": "number"
                    },
                    "count": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "oneOf": {
                      "type": "array"
                    },
                    "not": {
                      "$ref": "#/$defs/predicate"
                    }
                  },
                  "additionalProperties": false,
                  "minProperties": 1
                }
              ]
            },
            "expect": {
              "title": "Expectations",
              "type": "object",
              "description": "What the response must satisfy.",
              "properties": {
                "status": {
                  "description": "A code, a list of codes, a class such as 2xx, or a predicate.",
                  "anyOf": [
                    {
                      "type": "integer"
                    },
                    {
                      "type": "string"
                    },
                    {
                      "type": "array",
                      "items": {
                        "type": [
                          "integer",
                          "string"
                        ]
                      }
                    },
                    {
                      "$ref": "#/$defs/predicate"
                    }
                  ]
                },
                "headers": {
                  "type": "object",
                  "additionalProperties": {
                    "$ref": "#/$defs/predicate"
                  }
                },
                "json": {
                  "type": "object",
                  "propertyNames": {
                    "pattern": "^\\$"
                  },
                  "additionalProperties": {
                    "$ref": "#/$defs/predicate"
                  }
                },
                "body": {
                  "$ref": "#/$defs/predicate"
                },
                "maxTime": {
                  "$ref": "#/$defs/duration"
                },
                "matchesSample": {
                  "type": "boolean"
                },
                "schema": {
                  "anyOf": [
                    {
                      "const": true
                    },
                    {
                      "$ref": "#/$defs/schema"
                    }
                  ]
                },
                "events": {
                  "type": "object",
                  "description": "What a stream's events must hold, each read as {event, id, data}, its data parsed when JSON (docs/streams.md).",
                  "properties": {
                    "count": {
                      "$ref": "#/$defs/predicate",
                      "description": "How many events came."
                    },
                    "any": {
                      "type": "object",
                      "minProperties": 1,
                      "propertyNames": {
                        "pattern": "^\\$"
                      },
                      "additionalProperties": {
                        "$ref": "#/$defs/predicate"
                      },
                      "description": "Some event meets every path."
                    },
                    "all": {
                      "type": "object",
                      "minProperties": 1,
                      "propertyNames": {
                        "pattern": "^\\$"
                      },
                      "additionalProperties": {
                        "$ref": "#/$defs/predicate"
                      },
                      "description": "Every event meets every path."
                    },
                    "last": {
                      "type": "object",
                      "minProperties": 1,
                      "propertyNames": {
                        "pattern": "^\\$"
                      },
                      "additionalProperties": {
                        "$ref": "#/$defs/predicate"
                      },
                      "description": "The last event meets every path."
                    },
                    "sequence": {
                      "type": "array",
                      "minItems": 1,
                      "items": {
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": {
                          "pattern": "^\\$"
                        },
                        "additionalProperties": {
                          "$ref": "#/$defs/predicate"
                        }
                      },
                      "description": "Events meeting each step, in this order, others between allowed."
                    }
                  },
                  "additionalProperties": false
                }
              },
              "additionalProperties": false
            },
            "pages": {
              "title": "Pages",
              "description": "all, or how many pages of a paginated target to read; expect sees every item in one array.",
              "anyOf": [
                {
                  "const": "all"
                },
                {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 10000
                }
              ]
            },
            "check": {
              "title": "Check",
              "type": "object",
              "properties": {
                "name": {
                  "type": "string"
                },
                "params": {
                  "type": "object"
                },
                "sample": {
                  "type": "string",
                  "description": "A named sample, used when stubbed."
                },
                "pages": {
                  "$ref": "#/$defs/pages"
                },
                "live": {
                  "type": "boolean",
                  "default": true,
                  "description": "false: sent only when stubbed, on the samples; a live run skips it unless check --allow-writes (or --allow-deletes) covers its method. import openapi writes it on the checks of writes."
                },
                "expect": {
                  "$ref": "#/$defs/expect"
                }
              },
              "additionalProperties": false
            },
            "stream": {
              "title": "Stream",
              "description": "The response is read as a stream of events, printed as they arrive, and ends at the first bound reached (docs/streams.md). A kind alone, or a mapping.",
              "anyOf": [
                {
                  "$ref": "#/$defs/streamKind"
                },
                {
                  "type": "object",
                  "properties": {
                    "kind": {
                      "$ref": "#/$defs/streamKind"
                    },
                    "until": {
                      "type": "string",
                      "description": "A condition on an event that ends the stream after it, over {event}, {id}, {data} (parsed when JSON, with paths such as {data.choices.0.finish_reason}) and {index}."
                    },
                    "maxEvents": {
                      "type": "integer",
                      "minimum": 1,
                      "description": "The most events read."
                    },
                    "maxTime": {
                      "$ref": "#/$defs/duration",
                      "description": "The most time the stream is read, from its head."
                    },
                    "idle": {
                      "$ref": "#/$defs/duration",
                      "description": "The most time without an event."
                    },
                    "maxBytes": {
                      "description": "The most body bytes read (a WebSocket's message bytes): a number, or one with KiB, MiB or GiB.",
                      "anyOf": [
                        {
                          "type": "integer",
                          "minimum": 1
                        },
                        {
                          "type": "string",
                          "pattern": "^[0-9]+ ?(B|KiB|MiB|GiB)$"
                        }
                      ]
                    },
                    "script": {
                      "type": "array",
                      "maxItems": 10000,
                      "description": "A WebSocket's steps, said in order once it opens (kind: websocket).",
                      "items": {
                        "$ref": "#/$defs/socketStep"
                      }
                    }
                  },
                  "additionalProperties": false
                }
              ]
            },
            "streamKind": {
              "enum": [
                "sse",
                "ndjson",
                "json-seq",
                "websocket"
              ],
              "description": "sse (text/event-stream), ndjson (a JSON text a line), json-seq (RFC 7464) or websocket (each message an event); read from Content-Type when not given."
            },
            "paginate": {
              "title": "Pagination",
              "type": "object",
              "description": "Where a page's items are and how the next page is asked for; call --all follows it.",
              "properties": {
                "items": {
                  "$ref": "#/$defs/jsonPath",
                  "description": "Where a page's items are; the body itself when left out."
                },
                "next": {
                  "description": "link, { url: PATH }, { param: NAME, from: PATH } or { param: NAME, increment: N }.",
                  "anyOf": [
                    {
                      "const": "link"
                    },
                    {
                      "type": "object",
                      "properties": {
                        "url": {
                          "$ref": "#/$defs/jsonPath"
                        }
                      },
                      "required": [
                        "url"
                      ],
                      "additionalProperties": false
                    },
                    {
                      "type": "object",
                      "properties": {
                        "param": {
                          "type": "string"
                        },
                        "from": {
                          "$ref": "#/$defs/jsonPath"
                        }
                      },
                      "required": [
                        "param",
                        "from"
                      ],
                      "additionalProperties": false
                    },
                    {
                      "type": "object",
                      "properties": {
                        "param": {
                          "type": "string"
                        },
                        "increment": {
                          "type": "integer",
                          "minimum": 1,
                          "maximum": 2147483648
                        }
                      },
                      "required": [
                        "param",
                        "increment"
                      ],
                      "additionalProperties": false
                    }
                  ]
                }
              },
              "required": [
                "next"
              ],
              "additionalProperties": false
            },
            "target": {
              "title": "Target",
              "type": "object",
              "properties": {
                "summary": {
                  "type": "string",
                  "description": "One line for list, describe and help."
                },
                "description": {
                  "type": "string"
                },
                "params": {
                  "$ref": "#/$defs/params"
                },
                "path": {
                  "description": "Appended to the base URL; \"\" leaves it unchanged.",
                  "default": "",
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "method": {
                  "type": "string",
                  "pattern": "^([Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Pp][Uu][Tt]|[Pp][Aa][Tt][Cc][Hh]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Hh][Ee][Aa][Dd]|[Oo][Pp][Tt][Ii][Oo][Nn][Ss]|[Tt][Rr][Aa][Cc][Ee]|[Cc][Oo][Nn][Nn][Ee][Cc][Tt]|[Qq][Uu][Ee][Rr][Yy]|ACL|BASELINE-CONTROL|BIND|CHECKIN|CHECKOUT|COPY|LABEL|LINK|LOCK|MERGE|MKACTIVITY|MKCALENDAR|MKCOL|MKREDIRECTREF|MKWORKSPACE|MOVE|ORDERPATCH|PROPFIND|PROPPATCH|REBIND|REPORT|SEARCH|UNBIND|UNCHECKOUT|UNLINK|UNLOCK|UPDATE|UPDATEREDIRECTREF|VERSION-CONTROL)$",
                  "default": "GET",
                  "description": "GET POST PUT PATCH DELETE HEAD OPTIONS TRACE CONNECT QUERY, any case; or another method of IANA's HTTP Method Registry (COPY, LOCK, PROPFIND, ...), in capitals."
                },
                "headers": {
                  "$ref": "#/$defs/headers"
                },
                "cookies": {
                  "$ref": "#/$defs/cookies"
                },
                "task": {
                  "$ref": "#/$defs/task"
                },
                "sample": {
                  "$ref": "#/$defs/sample"
                },
                "samples": {
                  "type": "object",
                  "description": "Named samples, chosen with --sample NAME.",
                  "additionalProperties": {
                    "$ref": "#/$defs/sample"
                  }
                },
                "validation": {
                  "$ref": "#/$defs/validation"
                },
                "auth": {
                  "$ref": "#/$defs/auth"
                },
                "timeout": {
                  "$ref": "#/$defs/seconds"
                },
                "retry": {
                  "$ref": "#/$defs/retry"
                },
                "followRedirects": {
                  "type": "boolean"
                },
                "checks": {
                  "type": "array",
                  "items": {
                    "$ref": "#/$defs/check"
                  },
                  "description": "What moya-cli check asserts."
                },
                "schema": {
                  "$ref": "#/$defs/schema"
                },
                "requestSchema": {
                  "$ref": "#/$defs/schema"
                },
                "bodyRequired": {
                  "type": "boolean"
                },
                "mcp": {
                  "type": "boolean",
                  "default": true,
                  "description": "false keeps the target out of moya-cli mcp's tools."
                },
                "baseURL": {
                  "type": "string",
                  "description": "The target's own base URL."
                },
                "paginate": {
                  "$ref": "#/$defs/paginate"
                },
                "stream": {
                  "$ref": "#/$defs/stream"
                }
              },
              "additionalProperties": false,
              "minProperties": 1
            },
            "capture": {
              "title": "Capture",
              "anyOf": [
                {
                  "$ref": "#/$defs/jsonPath"
                },
                {
                  "type": "object",
                  "properties": {
                    "json": {
                      "$ref": "#/$defs/jsonPath"
                    },
                    "header": {
                      "type": "string"
                    },
                    "status": {
                      "const": true
                    },
                    "body": {
                      "const": true
                    },
                    "regex": {
                      "type": "string"
                    },
                    "cookie": {
                      "type": "string"
                    },
                    "duration": {
                      "const": true
                    },
                    "secret": {
                      "type": "boolean"
                    },
                    "optional": {
                      "type": "boolean"
                    }
                  },
                  "additionalProperties": false
                }
              ]
            },
            "step": {
              "title": "Flow step",
              "type": "object",
              "properties": {
                "name": {
                  "type": "string"
                },
                "call": {
                  "type": "string",
                  "description": "The target: a name in this service, or SERVICE.TARGET."
                },
                "params": {
                  "type": "object"
                },
                "sample": {
                  "type": "string"
                },
                "pages": {
                  "$ref": "#/$defs/pages"
                },
                "expect": {
                  "$ref": "#/$defs/expect"
                },
                "capture": {
                  "type": "object",
                  "additionalProperties": {
                    "$ref": "#/$defs/capture"
                  }
                },
                "until": {
                  "$ref": "#/$defs/expect"
                },
                "retry": {
                  "type": "object",
                  "properties": {
                    "every": {
                      "$ref": "#/$defs/duration"
                    },
                    "for": {
                      "$ref": "#/$defs/duration"
                    },
                    "times": {
                      "type": "integer",
                      "minimum": 1
                    }
                  },
                  "additionalProperties": false
                },
                "each": {
                  "anyOf": [
                    {
                      "type": "array"
                    },
                    {
                      "type": "string"
                    }
                  ]
                },
                "skip": {
                  "type": "string"
                }
              },
              "required": [
                "call"
              ],
              "additionalProperties": false
            },
            "flow": {
              "title": "Flow",
              "type": "object",
              "properties": {
                "summary": {
                  "type": "string"
                },
                "vars": {
                  "type": "object"
                },
                "steps": {
                  "type": "array",
                  "items": {
                    "$ref": "#/$defs/step"
                  }
                },
                "finally": {
                  "type": "array",
                  "items": {
                    "$ref": "#/$defs/step"
                  }
                },
                "mcp": {
                  "type": "boolean",
                  "default": true
                }
              },
              "required": [
                "steps"
              ],
              "additionalProperties": false
            },
            "environment": {
              "title": "Environment",
              "type": "object",
              "properties": {
                "baseURL": {
                  "type": "string"
                },
                "headers": {
                  "$ref": "#/$defs/headers"
                }
              },
              "additionalProperties": false
            },
            "secretSource": {
              "type": "object",
              "description": "One store: pass, keyring, dotenv or command.",
              "properties": {
                "pass": {
                  "type": "string",
                  "pattern": "^[^/-]",
                  "description": "A pass entry, such as github/token: the first line of pass show ENTRY."
                },
                "keyring": {
                  "type": "object",
                  "minProperties": 1,
                  "description": "The Secret Service item's attributes, as secret-tool lookup takes them.",
                  "propertyNames": {
                    "pattern": "^[^-]"
                  },
                  "additionalProperties": {
                    "type": [
                      "string",
                      "number",
                      "boolean"
                    ]
                  }
                },
                "dotenv": {
                  "type": "string",
                  "minLength": 1,
                  "description": "A dotenv file, relative to the spec, inside its folder."
                },
                "key": {
                  "type": "string",
                  "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
                  "description": "The name the dotenv file sets; the variable's own by default."
                },
                "command": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": [
                      "string",
                      "number",
                      "boolean"
                    ]
                  },
                  "description": "A program and its arguments, run without a shell; its stdout, trimmed. A relative program path is beside the spec. Runs only from a trusted folder or your own spec folder."
                },
                "timeout": {
                  "$ref": "#/$defs/seconds",
                  "description": "Seconds the read may take; 10 by default."
                }
              },
              "oneOf": [
                {
                  "required": [
                    "pass"
                  ]
                },
                {
                  "required": [
                    "keyring"
                  ]
                },
                {
                  "required": [
                    "dotenv"
                  ]
                },
                {
                  "required": [
                    "command"
                  ]
                }
              ],
              "dependentSchemas": {
                "key": {
                  "required": [
                    "dotenv"
                  ]
                }
              },
              "additionalProperties": false
            },
            "socketStep": {
              "title": "WebSocket step",
              "description": "One step of a WebSocket's script: one of send, send-json, expect, ping, wait or close; ping and close may be written alone.",
              "anyOf": [
                {
                  "enum": [
                    "ping",
                    "close"
                  ]
                },
                {
                  "type": "object",
                  "properties": {
                    "send": {
                      "type": "string",
                      "description": "A text message; {param} and ${VAR} bound."
                    }
                  },
                  "required": [
                    "send"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "send-json": {
                      "description": "A text message of the value as JSON, references bound."
                    }
                  },
                  "required": [
                    "send-json"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "expect": {
                      "type": "string",
                      "description": "A condition on a message, over {event}, {id}, {data} and {index}: waits for one it holds for."
                    },
                    "within": {
                      "$ref": "#/$defs/duration",
                      "description": "The most time to wait: 10 s unless given."
                    }
                  },
                  "required": [
                    "expect"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "ping": {
                      "type": "null"
                    },
                    "within": {
                      "$ref": "#/$defs/duration",
                      "description": "The most time to wait for the pong: 10 s unless given."
                    }
                  },
                  "required": [
                    "ping"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "wait": {
                      "$ref": "#/$defs/duration",
                      "description": "A pause."
                    }
                  },
                  "required": [
                    "wait"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "close": {
                      "anyOf": [
                        {
                          "type": "null"
                        },
                        {
                          "const": 1000
                        },
                        {
                          "type": "integer",
                          "minimum": 3000,
                          "maximum": 4999
                        }
                      ],
                      "description": "The close code: 1000 unless given, or 3000 to 4999."
                    }
                  },
                  "required": [
                    "close"
                  ],
                  "additionalProperties": false
                }
              ]
            }
          }
        }
        """#
}
