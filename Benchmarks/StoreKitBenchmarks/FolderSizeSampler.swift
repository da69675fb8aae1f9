import Foundation
import StoreKitSystem

/// Samples, every few milliseconds on a thread of its own, the bytes the files in a folder hold together, and keeps
/// the most it saw (a peak shorter than a sample's interval can be missed).
final class FolderSizeSampler: @unchecked Sendable {
    private let folder: String
    private let lock = NSLock()
    private var stopping = false
    private var peak = 0
    private let done = DispatchSemaphore(value: 0)

    /// Starts sampling `folder` (which need not exist yet).
    init(folder: String) {
        self.folder = folder
        Thread { [self] in
            while !lock.withLock({ stopping }) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                let bytes = names.reduce(0) { $0 + ((try? Syscall.status(folder + "/" + $1)?.size) ?? 0) }
                lock.withLock { peak = max(peak, bytes) }
                Thread.sleep(forTimeInterval: 0.005)
            }
            done.signal()
        }.start()
    }

    /// Stops sampling.
    /// - Returns: The most bytes the folder's files were seen to hold together.
    func stop() -> Int {
        lock.withLock { stopping = true }
        done.wait()
        return lock.withLock { peak }
    }
}
