import Foundation

/// A small todos session for `log` and `history`: full states and patch lines, an effect's action, a gap (steps
/// 4-5) and an end.
enum TodosWithGap {
    static let lines = [
        #"{"app":{"build":"1","name":"SampleApp","schemaVersion":"1","version":"1.0"},"format":1,"host":"vm","initialState":{"filter":"all","todos":[]},"kind":"session","metadata":{},"pid":1,"sessionId":"00000000-0000-0000-0000-000000000020","startedAt":"2026-11-23T10:00:00.000Z","storeId":"todos"}"#,
        #"{"action":{"addTodo":{"id":"A","title":"Milk"}},"kind":"action","name":"addTodo","origin":"app","seq":1,"state":{"filter":"all","todos":[{"id":"A","isComplete":false,"title":"Milk"}]},"time":0.1}"#,
        #"{"action":{"addTodo":{"id":"B","title":"Eggs"}},"kind":"action","name":"addTodo","origin":"app","patch":[{"op":"add","path":"/todos/1","value":{"id":"B","isComplete":false,"title":"Eggs"}}],"seq":2,"time":0.2}"#,
        #"{"action":{"todo":{"_0":{"toggleCompleted":{"id":"A"}}}},"kind":"action","name":"todo.toggleCompleted","origin":"app","patch":[{"op":"replace","path":"/todos/0/isComplete","value":true}],"seq":3,"time":0.3}"#,
        #"{"count":2,"from":4,"kind":"gap","reason":"bufferFull","to":5}"#,
        #"{"action":{"todo":{"_0":{"reminder":{"_0":{"fired":{"id":"B"}}}}}},"cause":3,"kind":"action","name":"todo.reminder.fired","origin":"effect","seq":6,"state":{"filter":"all","todos":[{"id":"A","isComplete":true,"title":"Oat milk"},{"id":"B","isComplete":true,"title":"Eggs"}]},"time":0.6}"#,
        #"{"action":{"setFilter":{"_0":"done"}},"kind":"action","name":"setFilter","origin":"app","patch":[{"op":"replace","path":"/filter","value":"done"}],"seq":7,"time":0.7}"#,
        #"{"actions":7,"dropped":2,"kind":"end","reason":"finished","time":0.8}"#,
    ]

    /// Writes the session to a new file under /tmp and returns its path; the caller removes it.
    static func write() throws -> String {
        let path = "/tmp/skr-look-\(UUID().uuidString.prefix(8)).jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
