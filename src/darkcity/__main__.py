from darkcity.cli import main

main()
