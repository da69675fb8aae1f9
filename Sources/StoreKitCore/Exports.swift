// What an app's code names from the libraries under StoreKitCore: the JSON value that session metadata, redaction
// and the session model are written in. The rest of the JSON engine and the system layer stay out of an app's way.
@_exported import enum StoreKitJSON.JSONValue
