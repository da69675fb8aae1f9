import Foundation
import ReplayCommands
import StoreKitCore
import StoreKitSystem

// The executable only runs the command line and maps its result to an exit status.
signal(SIGPIPE, SIG_IGN)
// Commands read sessions and states of many megabytes into trees of small values: the heap grows 32 MB at a time.
Syscall.padHeapGrowth(bytes: 32 << 20)
exit(ReplayCLI.main(Array(CommandLine.arguments.dropFirst())))
