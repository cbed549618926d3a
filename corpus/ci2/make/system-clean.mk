.PHONY: clean nuke

clean:
	rm -rf target

nuke: clean
	sudo rm -rf /var/lib/postgresql
	sudo rm -rf /usr/local/lib/node_modules
