/// A hand-written format 2 tally session: the header names the replayable effect `post score`; action 1's run
/// reads the clock, sleeps, makes a call with an input, sends action 2 (which names the effect) and ends.
/// Every line is canonical (keys sorted), as the recorder writes it.
package let formatTwoLines: [String] = [
    #"{"app":{"build":"","name":"TallyApp","schemaVersion":"","version":""},"effects":["post score"],"format":2,"host":"","initialState":{"items":[],"labels":[],"ratio":1.0,"total":0},"kind":"session","metadata":{},"pid":0,"sessionId":"s2","startedAt":"2026-11-22T10:00:00.000Z","storeId":"tally"}"#,
    formatTwoAction(1, adding: 1, to: [], time: "0.1"),
    #"{"cause":1,"effect":"post score","index":0,"kind":"call","name":"$clock.now","result":{"value":100000000},"time":0.11}"#,
    #"{"cause":1,"effect":"post score","index":1,"input":{"for":5000000},"kind":"call","name":"$clock.sleep","result":{"value":null},"time":0.12}"#,
    #"{"cause":1,"effect":"post score","index":2,"input":{"score":1},"kind":"call","name":"score.post","result":{"value":7},"time":0.13}"#,
    formatTwoAction(2, adding: 7, to: [1], time: "0.14", effect: 1),
    #"{"calls":3,"cause":1,"effect":"post score","kind":"effectEnd","outcome":"finished","sent":1,"time":0.15}"#,
    #"{"actions":2,"dropped":0,"kind":"end","reason":"finished","time":0.2}"#,
]

/// A format 2 tally action line that adds `value` to the tally whose items were `items`, sent by the app or, with
/// `effect`, by the `post score` run of that cause.
package func formatTwoAction(_ seq: Int, adding value: Int, to items: [Int], time: String, effect cause: Int? = nil) -> String {
    let origin = cause.map { #""cause":\#($0),"effect":"post score","# } ?? ""
    let from = cause == nil ? "app" : "effect"
    let after = items + [value]
    let list = after.map(String.init).joined(separator: ",")
    return #"{"action":{"add":{"_0":\#(value)}},\#(origin)"kind":"action","name":"add","origin":"\#(from)","seq":\#(seq),"state":{"items":[\#(list)],"labels":[],"ratio":1.0,"total":\#(after.reduce(0, +))},"time":\#(time)}"#
}

/// Action 1 of a tally session, from the app, naming an effect: the reader refuses it.
package let appActionNamingEffect =
    #"{"action":{"add":{"_0":1}},"effect":"post score","kind":"action","name":"add","origin":"app","seq":1,"state":{"items":[1],"labels":[],"ratio":1.0,"total":1},"time":0.1}"#

/// Action 1 of a tally session, sent by an effect and naming it: the reader refuses it in a format 1 session.
package let effectActionNamingEffect =
    #"{"action":{"add":{"_0":1}},"effect":"post score","kind":"action","name":"add","origin":"effect","seq":1,"state":{"items":[1],"labels":[],"ratio":1.0,"total":1},"time":0.1}"#
