import Foundation
import Testing
import XCTest

/// A file's contents handed to the test framework that runs the current test, so its report shows them beside the
/// failure: Xcode's test report, and `swift test --attachments-path DIR`, which saves Swift Testing's attachments.
enum TestAttachment {
    /// Attaches `contents` as a file called `name` to the running test: a Swift Testing attachment when one of its
    /// tests is running (Swift 6.2 and later), else on Apple platforms an `XCTAttachment` of the running XCTest test.
    ///
    /// Does nothing in a Swift Testing test before Swift 6.2 (which has no attachments), outside Swift Testing under
    /// swift-corelibs-xctest (Linux and Windows, which has no `XCTAttachment`), and off the main thread outside
    /// Swift Testing (an `async` XCTest method), where XCTest has no activity to attach to.
    static func attach(_ contents: Data, named name: String) {
        if Test.current != nil {
            #if compiler(>=6.2)
                Attachment.record([UInt8](contents), named: name)
            #endif
            return
        }
        #if canImport(Darwin)
            guard Thread.isMainThread else { return }
            MainActor.assumeIsolated {
                XCTContext.runActivity(named: name) { activity in
                    let attachment = XCTAttachment(
                        data: contents, uniformTypeIdentifier: uniformTypeIdentifier(of: name))
                    attachment.name = name
                    attachment.lifetime = .keepAlways
                    activity.add(attachment)
                }
            }
        #endif
    }

    #if canImport(Darwin)
        /// The uniform type identifier Xcode opens a file called `name` with: HTML for `.html`, else plain text.
        private static func uniformTypeIdentifier(of name: String) -> String {
            name.hasSuffix(".html") ? "public.html" : "public.plain-text"
        }
    #endif
}
