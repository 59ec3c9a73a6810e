// Made by scripts/spec-schema.sh from schema/arazzo.schema.json; edit that file.
extension ArazzoSchema {
    /// The text of schema/arazzo.schema.json.
    static let json = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://raw.githubusercontent.com/moya-cli/moya-cli/main/schema/arazzo.schema.json",
          "title": "Arazzo 1.0.x and 1.1.x, as moya-cli validates them",
          "$comment": "Written for moya-cli from the Arazzo Specification's fixed fields (1.0.1 and 1.1.0). Version 1.1's additions are allowed here in any document; moya-cli's validate refuses them in a 1.0 document with a message of its own. A workflow's inputs are held to JSON Schema when a workflow is run, not here.",
          "type": "object",
          "required": ["arazzo", "info", "sourceDescriptions", "workflows"],
          "properties": {
            "arazzo": { "type": "string", "pattern": "^1\\.[01]\\.\\d+(-.+)?$" },
            "$self": { "type": "string", "format": "uri-reference", "pattern": "^[^#]*$" },
            "info": { "$ref": "#/$defs/info" },
            "sourceDescriptions": { "$ref": "#/$defs/nonEmptyList", "items": { "$ref": "#/$defs/source" } },
            "workflows": { "$ref": "#/$defs/nonEmptyList", "items": { "$ref": "#/$defs/workflow" } },
            "components": { "$ref": "#/$defs/components" }
          },
          "$ref": "#/$defs/extensible",
          "unevaluatedProperties": false,
          "$defs": {
            "extensible": { "patternProperties": { "^x-": true } },
            "list": { "type": "array", "uniqueItems": true },
            "nonEmptyList": { "type": "array", "uniqueItems": true, "minItems": 1 },
            "text": { "type": "string" },
            "info": {
              "type": "object",
              "required": ["title", "version"],
              "properties": {
                "title": { "$ref": "#/$defs/text" },
                "summary": { "$ref": "#/$defs/text" },
                "description": { "$ref": "#/$defs/text" },
                "version": { "$ref": "#/$defs/text" }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "source": {
              "type": "object",
              "required": ["name", "url"],
              "properties": {
                "name": { "type": "string", "pattern": "^[A-Za-z0-9_\\-]+$" },
                "url": { "type": "string", "format": "uri-reference" },
                "type": { "enum": ["openapi", "arazzo", "asyncapi"] }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "outputs": {
              "type": "object",
              "patternProperties": {
                "^[a-zA-Z0-9.\\-_]+$": { "oneOf": [{ "type": "string" }, { "$ref": "#/$defs/selector" }] }
              }
            },
            "workflow": {
              "type": "object",
              "required": ["workflowId", "steps"],
              "properties": {
                "workflowId": { "$ref": "#/$defs/text" },
                "summary": { "$ref": "#/$defs/text" },
                "description": { "$ref": "#/$defs/text" },
                "inputs": { "type": ["object", "boolean"] },
                "dependsOn": { "$ref": "#/$defs/list", "items": { "type": "string" } },
                "steps": { "$ref": "#/$defs/nonEmptyList", "items": { "$ref": "#/$defs/step" } },
                "successActions": {
                  "$ref": "#/$defs/list",
                  "items": { "oneOf": [{ "$ref": "#/$defs/successAction" }, { "$ref": "#/$defs/reusable" }] }
                },
                "failureActions": {
                  "$ref": "#/$defs/list",
                  "items": { "oneOf": [{ "$ref": "#/$defs/failureAction" }, { "$ref": "#/$defs/reusable" }] }
                },
                "outputs": { "$ref": "#/$defs/outputs" },
                "parameters": {
                  "$ref": "#/$defs/list",
                  "items": { "oneOf": [{ "$ref": "#/$defs/parameter" }, { "$ref": "#/$defs/reusable" }] }
                }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "step": {
              "$comment": "A step calls an OpenAPI operation, an AsyncAPI operation or channel, or a workflow: exactly one of the three shapes.",
              "oneOf": [
                { "$ref": "#/$defs/operationStep" },
                { "$ref": "#/$defs/asyncStep" },
                { "$ref": "#/$defs/workflowStep" }
              ]
            },
            "stepFields": {
              "type": "object",
              "required": ["stepId"],
              "properties": {
                "stepId": { "$ref": "#/$defs/text" },
                "description": { "$ref": "#/$defs/text" },
                "timeout": { "type": "integer" },
                "dependsOn": {
                  "$ref": "#/$defs/nonEmptyList",
                  "items": {
                    "type": "string",
                    "oneOf": [
                      { "pattern": "^[^$]" },
                      { "pattern": "^\\$workflows\\.[^.]+\\.steps\\.[^.]+$" },
                      { "pattern": "^\\$sourceDescriptions\\.[^.]+\\.[^.]+\\.steps\\.[^.]+$" }
                    ]
                  }
                },
                "requestBody": { "$ref": "#/$defs/requestBody" },
                "successCriteria": { "$ref": "#/$defs/nonEmptyList", "items": { "$ref": "#/$defs/criterion" } },
                "onSuccess": {
                  "$ref": "#/$defs/list",
                  "items": { "oneOf": [{ "$ref": "#/$defs/successAction" }, { "$ref": "#/$defs/reusable" }] }
                },
                "onFailure": {
                  "$ref": "#/$defs/list",
                  "items": { "oneOf": [{ "$ref": "#/$defs/failureAction" }, { "$ref": "#/$defs/reusable" }] }
                },
                "outputs": { "$ref": "#/$defs/outputs" }
              },
              "$ref": "#/$defs/extensible"
            },
            "placedParameters": {
              "$comment": "An operation's parameters say where they go.",
              "$ref": "#/$defs/list",
              "items": {
                "oneOf": [{ "$ref": "#/$defs/reusable" }, { "$ref": "#/$defs/parameter", "required": ["in"] }]
              }
            },
            "operationStep": {
              "$ref": "#/$defs/stepFields",
              "properties": {
                "operationId": { "$ref": "#/$defs/text" },
                "operationPath": { "$ref": "#/$defs/text" },
                "parameters": { "$ref": "#/$defs/placedParameters" }
              },
              "oneOf": [{ "required": ["operationId"] }, { "required": ["operationPath"] }],
              "unevaluatedProperties": false
            },
            "asyncStep": {
              "$ref": "#/$defs/stepFields",
              "required": ["action"],
              "properties": {
                "operationId": { "$ref": "#/$defs/text" },
                "channelPath": { "$ref": "#/$defs/text" },
                "action": { "enum": ["send", "receive"] },
                "correlationId": { "type": ["string", "number", "boolean", "object", "array"] },
                "parameters": { "$ref": "#/$defs/placedParameters" }
              },
              "oneOf": [{ "required": ["operationId"] }, { "required": ["channelPath"] }],
              "dependentSchemas": { "correlationId": { "properties": { "action": { "const": "receive" } } } },
              "unevaluatedProperties": false
            },
            "workflowStep": {
              "$ref": "#/$defs/stepFields",
              "required": ["workflowId"],
              "properties": {
                "workflowId": { "$ref": "#/$defs/text" },
                "parameters": {
                  "$ref": "#/$defs/list",
                  "items": { "oneOf": [{ "$ref": "#/$defs/parameter" }, { "$ref": "#/$defs/reusable" }] }
                }
              },
              "unevaluatedProperties": false
            },
            "requestBody": {
              "type": "object",
              "properties": {
                "contentType": { "$ref": "#/$defs/text" },
                "payload": true,
                "replacements": { "$ref": "#/$defs/list", "items": { "$ref": "#/$defs/replacement" } }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "criterion": {
              "type": "object",
              "required": ["condition"],
              "properties": {
                "context": { "$ref": "#/$defs/text" },
                "condition": { "$ref": "#/$defs/text" },
                "type": {
                  "oneOf": [{ "enum": ["simple", "regex", "jsonpath", "xpath"] }, { "$ref": "#/$defs/expressionType" }]
                }
              },
              "dependentRequired": { "type": ["context"] },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "expressionType": {
              "type": "object",
              "required": ["type", "version"],
              "properties": {
                "type": { "enum": ["jsonpath", "xpath", "jsonpointer"] },
                "version": { "type": "string" }
              },
              "oneOf": [
                {
                  "properties": {
                    "type": { "const": "jsonpath" },
                    "version": { "enum": ["rfc9535", "draft-goessner-dispatch-jsonpath-00"] }
                  }
                },
                {
                  "properties": {
                    "type": { "const": "xpath" },
                    "version": { "enum": ["xpath-10", "xpath-20", "xpath-30", "xpath-31"] }
                  }
                },
                { "properties": { "type": { "const": "jsonpointer" }, "version": { "const": "rfc6901" } } }
              ],
              "$ref": "#/$defs/extensible"
            },
            "actionFields": {
              "type": "object",
              "required": ["name", "type"],
              "properties": {
                "name": { "$ref": "#/$defs/text" },
                "workflowId": { "$ref": "#/$defs/text" },
                "stepId": { "$ref": "#/$defs/text" },
                "parameters": { "$ref": "#/$defs/list" },
                "criteria": { "$ref": "#/$defs/list", "items": { "$ref": "#/$defs/criterion" } }
              },
              "$comment": "A goto names exactly one of a workflow and a step; parameters go only to a workflow.",
              "if": { "properties": { "type": { "const": "goto" } } },
              "then": { "oneOf": [{ "required": ["workflowId"] }, { "required": ["stepId"] }] },
              "dependentRequired": { "parameters": ["workflowId"] },
              "$ref": "#/$defs/extensible"
            },
            "successAction": {
              "$ref": "#/$defs/actionFields",
              "properties": {
                "type": { "enum": ["end", "goto"] },
                "criteria": { "minItems": 1 }
              },
              "unevaluatedProperties": false
            },
            "failureAction": {
              "$ref": "#/$defs/actionFields",
              "properties": {
                "type": { "enum": ["end", "goto", "retry"] },
                "retryAfter": { "type": "number", "minimum": 0 },
                "retryLimit": { "type": "integer", "minimum": 0 }
              },
              "unevaluatedProperties": false
            },
            "reusable": {
              "type": "object",
              "required": ["reference"],
              "properties": {
                "reference": { "$ref": "#/$defs/text" },
                "value": { "type": ["string", "boolean", "object", "array", "number", "null"] }
              },
              "unevaluatedProperties": false
            },
            "parameter": {
              "type": "object",
              "required": ["name", "value"],
              "properties": {
                "name": { "$ref": "#/$defs/text" },
                "in": { "enum": ["path", "query", "querystring", "header", "cookie", "channel"] },
                "value": {
                  "oneOf": [
                    { "type": ["string", "boolean", "array", "number", "null"] },
                    { "$ref": "#/$defs/selector" }
                  ]
                }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "replacement": {
              "type": "object",
              "required": ["target", "value"],
              "properties": {
                "target": { "$ref": "#/$defs/text" },
                "targetSelectorType": { "$ref": "#/$defs/selectorType" },
                "value": { "oneOf": [{ "type": "string" }, { "$ref": "#/$defs/selector" }] }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "selectorType": {
              "oneOf": [{ "enum": ["jsonpointer", "jsonpath", "xpath"] }, { "$ref": "#/$defs/expressionType" }]
            },
            "selector": {
              "type": "object",
              "required": ["context", "selector", "type"],
              "properties": {
                "context": { "$ref": "#/$defs/text" },
                "selector": { "$ref": "#/$defs/text" },
                "type": { "$ref": "#/$defs/selectorType" }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "components": {
              "type": "object",
              "properties": {
                "inputs": { "$ref": "#/$defs/named", "additionalProperties": { "type": ["object", "boolean"] } },
                "parameters": { "$ref": "#/$defs/named", "additionalProperties": { "$ref": "#/$defs/parameter" } },
                "successActions": { "$ref": "#/$defs/named", "additionalProperties": { "$ref": "#/$defs/successAction" } },
                "failureActions": { "$ref": "#/$defs/named", "additionalProperties": { "$ref": "#/$defs/failureAction" } }
              },
              "$ref": "#/$defs/extensible",
              "unevaluatedProperties": false
            },
            "named": { "type": "object", "propertyNames": { "pattern": "^[a-zA-Z0-9.\\-_]+$" } }
          }
        }
        """#
}
