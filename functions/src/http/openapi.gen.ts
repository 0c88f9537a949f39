// Written by `npm run openapi` from functions/src/http/openapi.ts: do not edit.
// functions/src/http/openapi.test.ts fails when it differs from what the schemas generate.
export const generatedOpenApi: Record<string, unknown> = {
  "openapi": "3.1.0",
  "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
  "info": {
    "title": "Tunesmith API",
    "version": "1",
    "description": "Generate music from your own apps with the same rules as the app: your plan, your quota, the same validation and messages. Every error is `{ \"error\": { \"code\", \"message\" } }`. Each key may make 60 requests a minute, of which 10 may start work; past that the answer is 429 with Retry-After."
  },
  "security": [
    {
      "apiKey": []
    }
  ],
  "tags": [
    {
      "name": "Tracks",
      "description": "Make songs and read them."
    },
    {
      "name": "Uploads",
      "description": "Bring your own audio to restyle."
    },
    {
      "name": "Studio",
      "description": "Extend, repaint and vary a finished track."
    },
    {
      "name": "Document",
      "description": "This description."
    }
  ],
  "paths": {
    "/api/v1/openapi.json": {
      "get": {
        "operationId": "v1OpenApi",
        "summary": "This document",
        "description": "The OpenAPI 3.1 description of `/api/v1`, generated from the schemas the API validates with.",
        "tags": [
          "Document"
        ],
        "security": [],
        "parameters": [],
        "responses": {
          "200": {
            "description": "The OpenAPI document.",
            "content": {
              "application/json": {}
            }
          }
        }
      }
    },
    "/api/v1/tracks": {
      "post": {
        "operationId": "v1CreateTrack",
        "summary": "Create a track",
        "description": "Starts a song from tags and lyrics (or instrumental), with the same rules, quota, plan and model checks as the app. With `inputAudio` (from `POST /api/v1/uploads`, once the file is uploaded) it restyles that audio instead. Charges one track of the weekly quota.",
        "tags": [
          "Tracks"
        ],
        "security": [
          {
            "apiKey": [
              "generate"
            ]
          }
        ],
        "x-scope": "generate",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateTrackRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The track is started: poll `GET /api/v1/tracks/{id}` until its status is completed or failed.",
            "headers": {
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/IdempotentReplayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackStarted"
                }
              }
            }
          },
          "400": {
            "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such track, or one the key owner does not own.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A request with the same Idempotency-Key is still being processed: retry shortly.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The Idempotency-Key was used with a different request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "502": {
            "description": "The music provider refused or failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "get": {
        "operationId": "v1ListTracks",
        "summary": "List your tracks",
        "description": "The key owner’s tracks, newest first, a page at a time: pass the answer’s `next` as `cursor` for the next page (null on the last).",
        "tags": [
          "Tracks"
        ],
        "security": [
          {
            "apiKey": [
              "read"
            ]
          }
        ],
        "x-scope": "read",
        "parameters": [
          {
            "name": "cursor",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 1024
            }
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "pattern": "^\\d{1,3}$"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "A page of tracks.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackList"
                }
              }
            }
          },
          "400": {
            "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/tracks/{id}": {
      "get": {
        "operationId": "v1GetTrack",
        "summary": "Get a track",
        "description": "The track’s status; once completed, short-lived audio links, its provenance link, and its stems and timed lyrics when they exist.",
        "tags": [
          "Tracks"
        ],
        "security": [
          {
            "apiKey": [
              "read"
            ]
          }
        ],
        "x-scope": "read",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The track’s id.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The track.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Track"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such track, or one the key owner does not own.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/uploads": {
      "post": {
        "operationId": "v1CreateUpload",
        "summary": "Upload audio to restyle",
        "description": "Reserves an upload: PUT the file to `uploadUrl` with the answer’s headers before `expiresAt`, then pass `inputAudio` to `POST /api/v1/tracks`. Types: audio/mpeg, audio/mp3, audio/wav, audio/x-wav, audio/wave, audio/vnd.wave, audio/mp4, audio/x-m4a, audio/m4a, audio/aac, audio/x-aac, audio/aacp, audio/ogg, application/ogg; at most 50 MB.",
        "tags": [
          "Uploads"
        ],
        "security": [
          {
            "apiKey": [
              "generate"
            ]
          }
        ],
        "x-scope": "generate",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateUploadRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Where to upload the file, and the inputAudio value.",
            "headers": {
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/IdempotentReplayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UploadCreated"
                }
              }
            }
          },
          "400": {
            "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A request with the same Idempotency-Key is still being processed: retry shortly.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The Idempotency-Key was used with a different request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/tracks/{id}/extend": {
      "post": {
        "operationId": "v1ExtendTrack",
        "summary": "Extend a track",
        "description": "A new track that continues this one at its start or end by `seconds` (the song stays within the longest length). Tags and lyrics are the parent track’s when left out. Charges one track of the weekly quota, as in the app.",
        "tags": [
          "Studio"
        ],
        "security": [
          {
            "apiKey": [
              "generate"
            ]
          }
        ],
        "x-scope": "generate",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The track’s id.",
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ExtendRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The track is started: poll `GET /api/v1/tracks/{id}` until its status is completed or failed.",
            "headers": {
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/IdempotentReplayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackStarted"
                }
              }
            }
          },
          "400": {
            "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such track, or one the key owner does not own.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A request with the same Idempotency-Key is still being processed: retry shortly.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The Idempotency-Key was used with a different request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "502": {
            "description": "The music provider refused or failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/tracks/{id}/repaint": {
      "post": {
        "operationId": "v1RepaintTrack",
        "summary": "Repaint a section",
        "description": "A new track with the section from `start` to `end` seconds (at least a second, inside the track) made again; `variance` from 0 (close) to 1 (free). Tags and lyrics are the parent track’s when left out. Charges one track of the weekly quota, as in the app.",
        "tags": [
          "Studio"
        ],
        "security": [
          {
            "apiKey": [
              "generate"
            ]
          }
        ],
        "x-scope": "generate",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The track’s id.",
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RepaintRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The track is started: poll `GET /api/v1/tracks/{id}` until its status is completed or failed.",
            "headers": {
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/IdempotentReplayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackStarted"
                }
              }
            }
          },
          "400": {
            "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such track, or one the key owner does not own.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A request with the same Idempotency-Key is still being processed: retry shortly.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The Idempotency-Key was used with a different request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "502": {
            "description": "The music provider refused or failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/tracks/{id}/variation": {
      "post": {
        "operationId": "v1CreateVariation",
        "summary": "Make a variation",
        "description": "A new track from the same tags, lyrics, length and input, with a new seed. Tags and lyrics are the parent track’s when left out. Charges one track of the weekly quota, as in the app.",
        "tags": [
          "Studio"
        ],
        "security": [
          {
            "apiKey": [
              "generate"
            ]
          }
        ],
        "x-scope": "generate",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The track’s id.",
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/VariationRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The track is started: poll `GET /api/v1/tracks/{id}` until its status is completed or failed.",
            "headers": {
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/IdempotentReplayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackStarted"
                }
              }
            }
          },
          "400": {
            "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such track, or one the key owner does not own.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A request with the same Idempotency-Key is still being processed: retry shortly.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The Idempotency-Key was used with a different request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "502": {
            "description": "The music provider refused or failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    }
  },
  "webhooks": {
    "track.completed": {
      "post": {
        "summary": "track.completed",
        "description": "A track of yours finished: its audio links are in `data.track`. Sent to each of your endpoints subscribed to it, for every track of yours (made in the app or with the API). Answer 2xx within 5 seconds; any other answer, a redirect or no answer is retried with backoff for 24 hours.",
        "parameters": [
          {
            "name": "Tunesmith-Signature",
            "in": "header",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/WebhookEvent"
                  },
                  {
                    "type": "object",
                    "properties": {
                      "type": {
                        "const": "track.completed"
                      },
                      "data": {
                        "type": "object",
                        "properties": {
                          "track": {
                            "$ref": "#/components/schemas/Track"
                          }
                        },
                        "required": [
                          "track"
                        ]
                      }
                    }
                  }
                ]
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Received. Any 2xx will do."
          }
        }
      }
    },
    "track.failed": {
      "post": {
        "summary": "track.failed",
        "description": "A track of yours failed: `data.track.error` says why; the quota it took is given back. Sent to each of your endpoints subscribed to it, for every track of yours (made in the app or with the API). Answer 2xx within 5 seconds; any other answer, a redirect or no answer is retried with backoff for 24 hours.",
        "parameters": [
          {
            "name": "Tunesmith-Signature",
            "in": "header",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/WebhookEvent"
                  },
                  {
                    "type": "object",
                    "properties": {
                      "type": {
                        "const": "track.failed"
                      },
                      "data": {
                        "type": "object",
                        "properties": {
                          "track": {
                            "$ref": "#/components/schemas/Track"
                          }
                        },
                        "required": [
                          "track"
                        ]
                      }
                    }
                  }
                ]
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Received. Any 2xx will do."
          }
        }
      }
    },
    "stems.ready": {
      "post": {
        "summary": "stems.ready",
        "description": "The stems of a track of yours are separated: `data.track.stems` links them. Sent to each of your endpoints subscribed to it, for every track of yours (made in the app or with the API). Answer 2xx within 5 seconds; any other answer, a redirect or no answer is retried with backoff for 24 hours.",
        "parameters": [
          {
            "name": "Tunesmith-Signature",
            "in": "header",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/WebhookEvent"
                  },
                  {
                    "type": "object",
                    "properties": {
                      "type": {
                        "const": "stems.ready"
                      },
                      "data": {
                        "type": "object",
                        "properties": {
                          "track": {
                            "$ref": "#/components/schemas/Track"
                          }
                        },
                        "required": [
                          "track"
                        ]
                      }
                    }
                  }
                ]
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Received. Any 2xx will do."
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "Error": {
        "type": "object",
        "properties": {
          "error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string"
              },
              "message": {
                "type": "string"
              }
            },
            "required": [
              "code",
              "message"
            ],
            "additionalProperties": false
          }
        },
        "required": [
          "error"
        ],
        "additionalProperties": false
      },
      "TrackStarted": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "pending",
              "processing",
              "completed",
              "failed"
            ]
          }
        },
        "required": [
          "id",
          "status"
        ],
        "additionalProperties": false
      },
      "CreateTrackRequest": {
        "type": "object",
        "properties": {
          "tags": {
            "type": "string",
            "minLength": 1,
            "maxLength": 500
          },
          "lyrics": {
            "anyOf": [
              {
                "type": "string",
                "maxLength": 5000
              },
              {
                "type": "null"
              }
            ]
          },
          "duration": {
            "type": "integer",
            "minimum": 1,
            "maximum": 240
          },
          "instrumental": {
            "default": false,
            "type": "boolean"
          },
          "model": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100
          },
          "visibility": {
            "default": "public",
            "type": "string",
            "enum": [
              "public",
              "private"
            ]
          },
          "title": {
            "anyOf": [
              {
                "type": "string",
                "maxLength": 100
              },
              {
                "type": "null"
              }
            ]
          },
          "bpm": {
            "anyOf": [
              {
                "type": "integer",
                "minimum": 40,
                "maximum": 240
              },
              {
                "type": "null"
              }
            ]
          },
          "key": {
            "type": [
              "string",
              "null"
            ]
          },
          "inputAudio": {
            "type": "string"
          }
        },
        "required": [
          "tags"
        ]
      },
      "TrackList": {
        "type": "object",
        "properties": {
          "tracks": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "id": {
                  "type": "string"
                },
                "status": {
                  "type": "string",
                  "enum": [
                    "pending",
                    "processing",
                    "completed",
                    "failed"
                  ]
                },
                "type": {
                  "type": "string"
                },
                "title": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "tags": {
                  "type": "string"
                },
                "lyrics": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "instrumental": {
                  "type": "boolean"
                },
                "duration": {
                  "type": [
                    "number",
                    "null"
                  ]
                },
                "model": {
                  "type": "string"
                },
                "visibility": {
                  "type": "string",
                  "enum": [
                    "public",
                    "private"
                  ]
                },
                "createdAt": {
                  "type": "string"
                },
                "parentId": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "audio": {
                  "anyOf": [
                    {
                      "type": "object",
                      "properties": {
                        "stream": {
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "wav": {
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "peaks": {
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      },
                      "required": [
                        "stream",
                        "wav",
                        "peaks"
                      ],
                      "additionalProperties": false
                    },
                    {
                      "type": "null"
                    }
                  ]
                },
                "provenanceUrl": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "analysis": {
                  "anyOf": [
                    {
                      "type": "object",
                      "properties": {
                        "bpm": {
                          "type": [
                            "number",
                            "null"
                          ]
                        },
                        "key": {
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      },
                      "required": [
                        "bpm",
                        "key"
                      ],
                      "additionalProperties": false
                    },
                    {
                      "type": "null"
                    }
                  ]
                },
                "stems": {
                  "anyOf": [
                    {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "properties": {
                          "name": {
                            "type": "string"
                          },
                          "url": {
                            "type": "string"
                          }
                        },
                        "required": [
                          "name",
                          "url"
                        ],
                        "additionalProperties": false
                      }
                    },
                    {
                      "type": "null"
                    }
                  ]
                },
                "timedLyrics": {
                  "anyOf": [
                    {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "properties": {
                          "text": {
                            "type": "string"
                          },
                          "start": {
                            "type": "number"
                          },
                          "end": {
                            "type": "number"
                          }
                        },
                        "required": [
                          "text",
                          "start",
                          "end"
                        ],
                        "additionalProperties": false
                      }
                    },
                    {
                      "type": "null"
                    }
                  ]
                },
                "error": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              },
              "required": [
                "id",
                "status",
                "type",
                "title",
                "tags",
                "lyrics",
                "instrumental",
                "duration",
                "model",
                "visibility",
                "createdAt",
                "parentId",
                "audio",
                "provenanceUrl",
                "analysis",
                "stems",
                "timedLyrics",
                "error"
              ],
              "additionalProperties": false
            }
          },
          "next": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "tracks",
          "next"
        ],
        "additionalProperties": false
      },
      "Track": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "pending",
              "processing",
              "completed",
              "failed"
            ]
          },
          "type": {
            "type": "string"
          },
          "title": {
            "type": [
              "string",
              "null"
            ]
          },
          "tags": {
            "type": "string"
          },
          "lyrics": {
            "type": [
              "string",
              "null"
            ]
          },
          "instrumental": {
            "type": "boolean"
          },
          "duration": {
            "type": [
              "number",
              "null"
            ]
          },
          "model": {
            "type": "string"
          },
          "visibility": {
            "type": "string",
            "enum": [
              "public",
              "private"
            ]
          },
          "createdAt": {
            "type": "string"
          },
          "parentId": {
            "type": [
              "string",
              "null"
            ]
          },
          "audio": {
            "anyOf": [
              {
                "type": "object",
                "properties": {
                  "stream": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "wav": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "peaks": {
                    "type": [
                      "string",
                      "null"
                    ]
                  }
                },
                "required": [
                  "stream",
                  "wav",
                  "peaks"
                ],
                "additionalProperties": false
              },
              {
                "type": "null"
              }
            ]
          },
          "provenanceUrl": {
            "type": [
              "string",
              "null"
            ]
          },
          "analysis": {
            "anyOf": [
              {
                "type": "object",
                "properties": {
                  "bpm": {
                    "type": [
                      "number",
                      "null"
                    ]
                  },
                  "key": {
                    "type": [
                      "string",
                      "null"
                    ]
                  }
                },
                "required": [
                  "bpm",
                  "key"
                ],
                "additionalProperties": false
              },
              {
                "type": "null"
              }
            ]
          },
          "stems": {
            "anyOf": [
              {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "url": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "name",
                    "url"
                  ],
                  "additionalProperties": false
                }
              },
              {
                "type": "null"
              }
            ]
          },
          "timedLyrics": {
            "anyOf": [
              {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "text": {
                      "type": "string"
                    },
                    "start": {
                      "type": "number"
                    },
                    "end": {
                      "type": "number"
                    }
                  },
                  "required": [
                    "text",
                    "start",
                    "end"
                  ],
                  "additionalProperties": false
                }
              },
              {
                "type": "null"
              }
            ]
          },
          "error": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "id",
          "status",
          "type",
          "title",
          "tags",
          "lyrics",
          "instrumental",
          "duration",
          "model",
          "visibility",
          "createdAt",
          "parentId",
          "audio",
          "provenanceUrl",
          "analysis",
          "stems",
          "timedLyrics",
          "error"
        ],
        "additionalProperties": false
      },
      "UploadCreated": {
        "type": "object",
        "properties": {
          "uploadUrl": {
            "type": "string"
          },
          "method": {
            "type": "string",
            "const": "PUT"
          },
          "headers": {
            "type": "object",
            "propertyNames": {
              "type": "string"
            },
            "additionalProperties": {
              "type": "string"
            }
          },
          "inputAudio": {
            "type": "string"
          },
          "expiresAt": {
            "type": "string"
          }
        },
        "required": [
          "uploadUrl",
          "method",
          "headers",
          "inputAudio",
          "expiresAt"
        ],
        "additionalProperties": false
      },
      "CreateUploadRequest": {
        "type": "object",
        "properties": {
          "filename": {
            "type": "string"
          },
          "type": {
            "type": "string"
          },
          "size": {
            "type": "number"
          }
        },
        "required": [
          "filename",
          "type",
          "size"
        ]
      },
      "ExtendRequest": {
        "type": "object",
        "properties": {
          "seconds": {
            "type": "integer",
            "minimum": 5,
            "maximum": 240
          },
          "at": {
            "default": "end",
            "type": "string",
            "enum": [
              "start",
              "end"
            ]
          },
          "tags": {
            "type": "string",
            "minLength": 1,
            "maxLength": 500
          },
          "lyrics": {
            "type": "string",
            "maxLength": 5000
          }
        },
        "required": [
          "seconds"
        ]
      },
      "RepaintRequest": {
        "type": "object",
        "properties": {
          "start": {
            "type": "number"
          },
          "end": {
            "type": "number"
          },
          "variance": {
            "default": 0.5,
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "tags": {
            "type": "string",
            "minLength": 1,
            "maxLength": 500
          },
          "lyrics": {
            "type": "string",
            "maxLength": 5000
          }
        },
        "required": [
          "start",
          "end"
        ]
      },
      "VariationRequest": {
        "type": "object",
        "properties": {}
      },
      "WebhookEvent": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "type": {
            "type": "string"
          },
          "createdAt": {
            "type": "string"
          },
          "data": {
            "type": "object",
            "propertyNames": {
              "type": "string"
            },
            "additionalProperties": {}
          }
        },
        "required": [
          "id",
          "type",
          "createdAt",
          "data"
        ],
        "additionalProperties": false
      }
    },
    "securitySchemes": {
      "apiKey": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "API key",
        "description": "Create a key in Profile → Developers (at most 10 at a time) and send it as `Authorization: Bearer <key>`. It is shown once and stored only as a hash; revoking it takes effect at once. A key carries scopes: `generate` to start work, `read` to read what it made. Cookies are ignored on `/api/v1`: a browser session never works here, and a key never works in the app."
      }
    },
    "parameters": {
      "IdempotencyKey": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": false,
        "description": "Any 1 to 255 visible characters (a UUID serves). A repeat with the same key within 24 hours answers the first response (its status and body, with `Idempotent-Replayed: true`) and charges nothing again, even when the repeats race; a repeat while the first is still running answers 409, and the same key with a different request 422.",
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      }
    },
    "headers": {
      "RetryAfter": {
        "description": "Seconds to wait before trying again.",
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      },
      "IdempotentReplayed": {
        "description": "true when this is the stored answer to an earlier request with the same Idempotency-Key.",
        "schema": {
          "type": "string",
          "enum": [
            "true"
          ]
        }
      },
      "Tunesmith-Signature": {
        "description": "`t=<unix seconds>,v1=<hex HMAC-SHA256 of \"t.body\" with the endpoint's signing secret>`. Refuse a delivery whose t is more than 300 seconds from now, and compare the signature in constant time.",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^t=\\d+,v1=[0-9a-f]{64}$"
        }
      }
    }
  },
  "x-error-codes": [
    {
      "status": 400,
      "code": "invalid_request",
      "description": "The body or query is not valid: the message names the first field the app refuses, and nothing was made."
    },
    {
      "status": 401,
      "code": "unauthorized",
      "description": "No API key, or one that is not valid, revoked, or whose owner is suspended or deleted."
    },
    {
      "status": 403,
      "code": "forbidden",
      "description": "The key lacks this call's scope, or the owner's plan does not include API access or this model."
    },
    {
      "status": 404,
      "code": "not_found",
      "description": "No such track, or one the key owner does not own."
    },
    {
      "status": 409,
      "code": "conflict",
      "description": "A request with the same Idempotency-Key is still being processed: retry shortly."
    },
    {
      "status": 413,
      "code": "too_large",
      "description": "The body is too large."
    },
    {
      "status": 422,
      "code": "idempotency_mismatch",
      "description": "The Idempotency-Key was used with a different request."
    },
    {
      "status": 429,
      "code": "rate_limited",
      "description": "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds."
    },
    {
      "status": 500,
      "code": "internal_error",
      "description": "Something went wrong on our side."
    },
    {
      "status": 502,
      "code": "provider_error",
      "description": "The music provider refused or failed."
    },
    {
      "status": 503,
      "code": "unavailable",
      "description": "The service is unavailable: retry later."
    }
  ],
  "x-rate-limits": {
    "requestsPerMinute": 60,
    "startsPerMinute": 10
  },
  "x-webhooks": {
    "signatureHeader": "Tunesmith-Signature",
    "toleranceSeconds": 300,
    "testEvent": "webhook.test"
  }
};
