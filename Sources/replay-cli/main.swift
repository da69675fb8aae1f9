import Foundation
import ReplayCommands

// The executable only runs the command line and maps its result to an exit status.
signal(SIGPIPE, SIG_IGN)
exit(ReplayCLI.main(Array(CommandLine.arguments.dropFirst())))
