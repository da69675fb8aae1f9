import Foundation
import StoreKitCore
import Testing

extension SessionRecorder {
    /// Finishes, waiting as long as a loaded machine running a sanitizer may need, and records an issue if even
    /// that was not enough: a session read back after a timed-out finish would be cut short, not wrong.
    @discardableResult
    package func finishWaitingGenerously(sourceLocation: SourceLocation = #_sourceLocation) -> RecorderStatistics {
        let statistics = finish(timeout: .seconds(120))
        #expect(statistics.isFinished, "the recorder did not finish within 120 seconds", sourceLocation: sourceLocation)
        return statistics
    }

    /// ``finishWaitingGenerously(sourceLocation:)`` on a thread of its own, so that an async test waiting for a
    /// busy recorder holds no thread of the shared pool the other tests run on.
    @discardableResult
    package func finishWaitingGenerouslyOffThePool(
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> RecorderStatistics {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.finishWaitingGenerously(sourceLocation: sourceLocation)) }
                .start()
        }
    }
}
