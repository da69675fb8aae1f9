import StoreKitCore
import StoreKitJSON

/// The JSON Schema of one session line (formats 1 to 3), as shipped in `docs/session.schema.json`.
///
/// The schema describes what this version writes; it does not decide what a reader accepts, which
/// ``SessionLineDecoder`` alone does (the schema cannot see the rules between lines, and takes `1.0` for an
/// integer). ``SessionVerifier`` warns about a line the reader accepts but the schema describes otherwise, and the
/// tests check real sessions against it. A test keeps this copy and the file identical.
public enum SessionSchema {
    /// The schema's text.
    public static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:storekit-replay:session:3",
  "title": "One line of a StoreKit replay session, formats 1 to 3",
  "description": "A session is NDJSON: one JSON object per line, UTF-8, each line ending in a newline. The first line is a 'session' header; 'action', 'gap' and 'end' lines follow, in format 2 the 'call' and 'effectEnd' lines of replayable effects, and in format 3 'note' lines. See docs/session-format.md.",
  "oneOf": [
    {
      "$ref": "#/$defs/session"
    },
    {
      "$ref": "#/$defs/action"
    },
    {
      "$ref": "#/$defs/gap"
    },
    {
      "$ref": "#/$defs/end"
    },
    {
      "$ref": "#/$defs/call"
    },
    {
      "$ref": "#/$defs/effectEnd"
    },
    {
      "$ref": "#/$defs/note"
    }
  ],
  "$defs": {
    "session": {
      "type": "object",
      "required": [
        "kind",
        "format",
        "sessionId",
        "storeId",
        "app",
        "startedAt",
        "initialState"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "session"
        },
        "format": {
          "enum": [
            1,
            2,
            3
          ]
        },
        "sessionId": {
          "type": "string",
          "minLength": 1
        },
        "storeId": {
          "type": "string",
          "minLength": 1
        },
        "app": {
          "type": "object",
          "required": [
            "name"
          ],
          "additionalProperties": false,
          "properties": {
            "name": {
              "type": "string"
            },
            "version": {
              "type": "string"
            },
            "build": {
              "type": "string"
            },
            "schemaVersion": {
              "type": "string"
            },
            "commit": {
              "description": "the git commit the app was built from, when known",
              "type": "string",
              "pattern": "^([0-9a-f]{40}|[0-9a-f]{64})$"
            }
          }
        },
        "startedAt": {
          "type": "string",
          "minLength": 20
        },
        "host": {
          "type": "string"
        },
        "pid": {
          "type": "integer",
          "minimum": 0
        },
        "initialState": {},
        "metadata": {
          "type": "object"
        },
        "redacted": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "state": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "action": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "calls": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "notes": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        },
        "effects": {
          "description": "format 2: the names of the store's replayable effects",
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          }
        },
        "typeNotes": {
          "description": "where the initial state's JSON holds Swift types it does not show: each member lists generalised paths (see docs/session-format.md, Type notes); written when there are any, in every format",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "dates": {
              "type": "array",
              "items": {
                "$ref": "#/$defs/typePath"
              }
            },
            "durations": {
              "type": "array",
              "items": {
                "$ref": "#/$defs/typePath"
              }
            },
            "keyedPairArrays": {
              "type": "array",
              "items": {
                "$ref": "#/$defs/typePath"
              }
            },
            "sets": {
              "type": "array",
              "items": {
                "$ref": "#/$defs/typePath"
              }
            },
            "identityKeys": {
              "description": "[path, member]: the member that identifies the elements of the arrays at path",
              "type": "array",
              "items": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "prefixItems": [
                  {
                    "$ref": "#/$defs/typePath"
                  },
                  {
                    "type": "string",
                    "minLength": 1
                  }
                ]
              }
            }
          }
        }
      }
    },
    "action": {
      "type": "object",
      "required": [
        "kind",
        "seq",
        "time",
        "action"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "action"
        },
        "seq": {
          "type": "integer",
          "minimum": 1
        },
        "time": {
          "type": "number",
          "minimum": 0
        },
        "name": {
          "type": "string"
        },
        "action": {},
        "origin": {
          "enum": [
            "app",
            "effect"
          ]
        },
        "cause": {
          "type": "integer",
          "minimum": 1
        },
        "state": {},
        "patch": {
          "$ref": "#/$defs/patch"
        },
        "effect": {
          "description": "format 2: the name of the effect that sent the action (origin 'effect' only)",
          "type": "string",
          "minLength": 1
        }
      },
      "oneOf": [
        {
          "required": [
            "state"
          ]
        },
        {
          "required": [
            "patch"
          ]
        }
      ]
    },
    "gap": {
      "type": "object",
      "required": [
        "kind",
        "from",
        "to",
        "reason"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "gap"
        },
        "from": {
          "type": "integer",
          "minimum": 1
        },
        "to": {
          "type": "integer",
          "minimum": 1
        },
        "count": {
          "type": "integer",
          "minimum": 1
        },
        "reason": {
          "enum": [
            "bufferFull",
            "transportFailed",
            "encodingFailed",
            "notEncodable",
            "rejected",
            "timedOut"
          ]
        },
        "message": {
          "type": "string"
        },
        "actions": {
          "description": "the actions the recorder kept without their states, one for each sequence number from 'from' to 'to', in order; replay runs through them",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "object",
            "required": [
              "seq",
              "time",
              "action"
            ],
            "additionalProperties": false,
            "properties": {
              "seq": {
                "type": "integer",
                "minimum": 1
              },
              "time": {
                "type": "number",
                "minimum": 0
              },
              "name": {
                "type": "string"
              },
              "action": {},
              "origin": {
                "enum": [
                  "app",
                  "effect"
                ]
              },
              "cause": {
                "type": "integer",
                "minimum": 1
              },
              "effect": {
                "type": "string",
                "minLength": 1
              }
            }
          }
        }
      }
    },
    "end": {
      "type": "object",
      "required": [
        "kind",
        "reason",
        "actions",
        "time"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "end"
        },
        "reason": {
          "enum": [
            "finished",
            "appExited",
            "disconnected",
            "timedOut"
          ]
        },
        "actions": {
          "type": "integer",
          "minimum": 0
        },
        "dropped": {
          "type": "integer",
          "minimum": 0
        },
        "time": {
          "type": "number",
          "minimum": 0
        }
      }
    },
    "call": {
      "description": "format 2: one input an effect run took from the outside world through its context",
      "type": "object",
      "required": [
        "kind",
        "cause",
        "effect",
        "index",
        "name",
        "result",
        "time"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "call"
        },
        "cause": {
          "type": "integer",
          "minimum": 1
        },
        "effect": {
          "type": "string",
          "minLength": 1
        },
        "index": {
          "type": "integer",
          "minimum": 0
        },
        "name": {
          "description": "the call's name; names starting with '$' are built in: $clock.now, $clock.sleep, $uuid, $random, $state",
          "type": "string",
          "minLength": 1
        },
        "time": {
          "type": "number",
          "minimum": 0
        },
        "input": {},
        "result": {
          "$ref": "#/$defs/callResult"
        }
      }
    },
    "callResult": {
      "description": "exactly one of 'value', 'error' or 'cancelled'",
      "oneOf": [
        {
          "type": "object",
          "required": [
            "value"
          ],
          "additionalProperties": false,
          "properties": {
            "value": {}
          }
        },
        {
          "type": "object",
          "required": [
            "error"
          ],
          "additionalProperties": false,
          "properties": {
            "error": {
              "type": "object",
              "required": [
                "type",
                "message"
              ],
              "additionalProperties": false,
              "properties": {
                "type": {
                  "type": "string"
                },
                "message": {
                  "type": "string"
                },
                "value": {}
              }
            }
          }
        },
        {
          "type": "object",
          "required": [
            "cancelled"
          ],
          "additionalProperties": false,
          "properties": {
            "cancelled": {
              "const": true
            }
          }
        }
      ]
    },
    "effectEnd": {
      "description": "format 2: the end of an effect run that took an input or sent an action",
      "type": "object",
      "required": [
        "kind",
        "cause",
        "effect",
        "outcome",
        "calls",
        "sent",
        "time"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "effectEnd"
        },
        "cause": {
          "type": "integer",
          "minimum": 1
        },
        "effect": {
          "type": "string",
          "minLength": 1
        },
        "outcome": {
          "enum": [
            "finished",
            "cancelled"
          ]
        },
        "calls": {
          "type": "integer",
          "minimum": 0
        },
        "sent": {
          "type": "integer",
          "minimum": 0
        },
        "time": {
          "type": "number",
          "minimum": 0
        }
      }
    },
    "note": {
      "description": "format 3: a note the app wrote between actions (a log message, a request and its status, a screen change); replay skips it",
      "type": "object",
      "required": [
        "kind",
        "time",
        "message"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "const": "note"
        },
        "time": {
          "type": "number",
          "minimum": 0
        },
        "message": {
          "type": "string"
        },
        "fields": {
          "type": "object",
          "additionalProperties": {
            "type": "string"
          }
        }
      }
    },
    "patch": {
      "description": "RFC 6902 JSON Patch against the previous line's state; paths are RFC 6901 JSON Pointers",
      "type": "array",
      "items": {
        "description": "One operation: add, replace and test need 'value', move and copy need 'from', remove needs neither; members an operation does not define are ignored",
        "oneOf": [
          {
            "type": "object",
            "required": [
              "op",
              "path",
              "from"
            ],
            "properties": {
              "op": {
                "enum": [
                  "move",
                  "copy"
                ]
              },
              "path": {
                "type": "string",
                "pattern": "^(/([^~/]|~[01])*)*$"
              },
              "from": {
                "type": "string",
                "pattern": "^(/([^~/]|~[01])*)*$"
              }
            }
          },
          {
            "type": "object",
            "required": [
              "op",
              "path",
              "value"
            ],
            "properties": {
              "op": {
                "enum": [
                  "add",
                  "replace",
                  "test"
                ]
              },
              "path": {
                "type": "string",
                "pattern": "^(/([^~/]|~[01])*)*$"
              }
            }
          },
          {
            "type": "object",
            "required": [
              "op",
              "path"
            ],
            "properties": {
              "op": {
                "const": "remove"
              },
              "path": {
                "type": "string",
                "pattern": "^(/([^~/]|~[01])*)*$"
              }
            }
          }
        ]
      }
    },
    "typePath": {
      "description": "a generalised path: a string is an object member, [] any element of an array, {} the value of any pair of a keyed-pair array",
      "type": "array",
      "items": {
        "oneOf": [
          {
            "type": "string"
          },
          {
            "type": "array",
            "maxItems": 0
          },
          {
            "type": "object",
            "additionalProperties": false
          }
        ]
      }
    }
  }
}
"""#

    /// The parsed schema, ready to validate lines.
    public static let validator: JSONSchema = {
        // The text above is a fixed, tested JSON document.
        JSONSchema(try! JSONValue(parsing: text))
    }()
}
