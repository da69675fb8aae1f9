import Foundation
@testable import StoreKitSystem
import Testing

#if os(Linux)
import Synchronization
#endif

import StoreKitTestFixtures

@testable import StoreKitCore

@Suite struct SyscallTests {
    /// Whether `fd` names an open descriptor, asked of the C library directly.
    private static func isOpen(_ fd: Int32) -> Bool {
        fcntl(fd, F_GETFD) != -1
    }

    /// Moves `fd` to the lowest free number from `floor` up, where tests running beside this one (which get the
    /// lowest free numbers) do not reuse it the moment it is closed. Each test passes its own floor.
    private static func movedUp(_ fd: Int32, floor: Int32) throws -> Int32 {
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, floor)
        try #require(moved >= floor)
        try Syscall.close(fd)
        return moved
    }

    // MARK: - Errors name the call

    @Test func aFailedCallNamesTheCallItsSubjectAndErrno() {
        // Given a path that does not exist
        let path = "/tmp/syscall-tests-\(getpid())-missing"

        // When it is opened
        let error = #expect(throws: SystemError.self) { try Syscall.open(path, O_RDONLY) }

        // Then the error says which call failed, on what, and why
        #expect(error == SystemError(call: "open", subject: path, errno: ENOENT))
        #expect(error?.description == "open \(path): No such file or directory (errno 2)")
    }

    // MARK: - openRegularFile

    @Test func openRegularFileOpensARegularFile() throws {
        let path = "/tmp/syscall-tests-\(getpid())-regular"
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? Syscall.unlink(path) }

        let fd = try Syscall.openRegularFile(path)
        defer { try? Syscall.close(fd) }

        var bytes = [UInt8](repeating: 0, count: 16)
        #expect(try Syscall.read(fd, into: &bytes) == 5)
    }

    @Test func openRegularFileRefusesADeviceAFolderAndAFIFOWithoutAWriterByKind() throws {
        // Given a FIFO no process writes to (opening it for reading would block)
        let fifo = "/tmp/syscall-tests-\(getpid())-fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { try? Syscall.unlink(fifo) }

        // When each is opened as a regular file, Then each is refused at once, by kind
        for (path, kind) in [("/dev/zero", FileKind.characterDevice), ("/tmp", .directory), (fifo, .fifo)] {
            let error = #expect(throws: RegularFileError.self) { try Syscall.openRegularFile(path) }
            #expect(error == .notRegular(kind))
        }
        #expect(RegularFileError.notRegular(.fifo).description == "it is a FIFO (named pipe), not a regular file")
        let missing = #expect(throws: RegularFileError.self) { try Syscall.openRegularFile(fifo + "-missing") }
        #expect(missing == .system(SystemError(call: "open", subject: fifo + "-missing", errno: ENOENT)))
    }

    // MARK: - close

    @Test func closingAnOpenDescriptorReleasesIt() throws {
        // Given an open descriptor
        let fd = try Self.movedUp(Syscall.open("/dev/null", O_RDONLY), floor: 700)
        #expect(Self.isOpen(fd))

        // When it is closed
        try Syscall.close(fd, subject: "/dev/null")

        // Then it no longer names anything
        #expect(!Self.isOpen(fd))
    }

    @Test func syncAndCloseWritesTheFileAndReleasesTheDescriptor() throws {
        // Given a file with bytes written to it
        let path = "/tmp/syscall-tests-\(getpid())-sync"
        defer { try? Syscall.unlink(path) }
        let fd = try Self.movedUp(Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC), floor: 800)
        try Syscall.writeAll(fd, Array("kept\n".utf8), subject: path)

        // When it is flushed and closed
        try Syscall.syncAndClose(fd, subject: path)

        // Then the descriptor is released and the bytes are there
        #expect(!Self.isOpen(fd))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept\n")
    }

    #if os(Linux)
    @Test func syncAndCloseReportsAFailedFlushAndStillReleasesTheDescriptor() throws {
        // Given a pipe, which Linux cannot fsync
        let (readEnd, pipeWriteEnd) = try Syscall.makePipe()
        defer { try? Syscall.close(readEnd) }
        let writeEnd = try Self.movedUp(pipeWriteEnd, floor: 900)

        // When its write end is flushed and closed
        let error = #expect(throws: SystemError.self) { try Syscall.syncAndClose(writeEnd, subject: "pipe") }

        // Then the flush's failure is reported, and the descriptor is released all the same
        #expect(error == SystemError(call: "fsync", subject: "pipe", errno: EINVAL))
        #expect(!Self.isOpen(writeEnd))
    }
    #endif

    // MARK: - Errors that can only be a bug stop the process

    @Test func aBadDescriptorStopsTheProcessNamingTheCall() async throws {
        // When a call is given a descriptor that is not open
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? Syscall.status(of: Int32.max)
        }

        // Then the process stops, and says which call was handed the bad descriptor
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("fstat: bad file descriptor (errno \(EBADF)) is a bug"), "\(stderr)")
    }

    @Test func closingADescriptorThatIsNotOpenStopsTheProcess() async throws {
        // When a descriptor that is not open is closed
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try? Syscall.close(Int32.max)
        }

        // Then the process stops, naming close
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("close: bad file descriptor (errno \(EBADF)) is a bug"), "\(stderr)")
    }

    @Test func aBadBufferStopsTheProcessNamingTheCall() async throws {
        // When a read is given a buffer outside the process (the kernel reports it rather than crashing)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let fd = try Syscall.open("/dev/zero", O_RDONLY)
            _ = try? Syscall.read(fd, into: UnsafeMutableRawPointer(bitPattern: 8)!, count: 1)
        }

        // Then the process stops, naming read
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("read: bad address (errno \(EFAULT)) is a bug"), "\(stderr)")
    }

    // MARK: - EINTR

    #if os(Linux)
    /// Signals the interruption handler has caught.
    private static let interruptionsCaught = Atomic<Int>(0)

    @Test func aCallInterruptedBySignalsIsRetried() throws {
        // Given a handler for SIGUSR1 installed without SA_RESTART, so a blocked read returns EINTR
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in SyscallTests.interruptionsCaught.add(1, ordering: .relaxed) }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }
        // ... and a thread blocked reading an empty pipe
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { try? Syscall.close(end) } }
        let readEnd = ends[0]
        let reader = Locked<pthread_t?>(nil)
        let outcome = Locked<Result<Int, SystemError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            // The test runner's threads may start with the signal blocked.
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            reader.withLock { $0 = pthread_self() }
            var buffer = [UInt8](repeating: 0, count: 1)
            let result = Result { () throws(SystemError) in try Syscall.read(readEnd, into: &buffer) }
            outcome.withLock { $0 = result }
            done.signal()
        }.start()
        let deadline = Date().addingTimeInterval(30)
        while reader.withLock({ $0 }) == nil && Date() < deadline { sched_yield() }
        let thread = try #require(reader.withLock { $0 })

        // When the thread is interrupted again and again before the data arrives
        for _ in 0..<20 where outcome.withLock({ $0 == nil }) {
            let caught = Self.interruptionsCaught.load(ordering: .relaxed)
            pthread_kill(thread, SIGUSR1)
            while Self.interruptionsCaught.load(ordering: .relaxed) == caught && Date() < deadline { sched_yield() }
        }
        try Syscall.writeAll(ends[1], [0x2A])

        // Then the read carried on through each EINTR and returned the byte
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(try outcome.withLock { $0 }?.get() == 1)
        #expect(Self.interruptionsCaught.load(ordering: .relaxed) >= 20)
    }
    #endif

    @Test func theSoftDescriptorLimitIsRaisedAsFarAsThePlatformAllowsAndNeverLowered() throws {
        let raised = try Syscall.raiseDescriptorSoftLimit()
        #expect(raised.soft >= min(raised.hard, systemDescriptorSoftLimitCeiling))
        #expect(try Syscall.descriptorLimit() == raised)
        #expect(try Syscall.raiseDescriptorSoftLimit() == raised)
    }

    @Test func thePeerOfAConnectedUnixSocketIsThisUserAndProcess() throws {
        let (client, accepted) = try ConnectedUnixSockets.make()
        defer {
            try? Syscall.close(client)
            try? Syscall.close(accepted)
        }
        #expect(try Syscall.peerCredentials(accepted) == Syscall.PeerCredentials(userID: geteuid(), processID: getpid()))
    }
}
