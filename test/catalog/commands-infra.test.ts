/**
 * dangerous-commands' data and infrastructure rules (validators/dangerous-commands/scripts/infra.ts), verdict by
 * verdict: statements that drop or empty databases sent to a client, and commands that wipe containers, clusters
 * and cloud resources, each beside the routine commands that must run. Exact verdicts: commands-verdict.ts.
 */
import { describe, test } from 'bun:test';
import { expectVerdicts } from './commands-verdict.ts';

describe('dangerous-commands: databases, containers and clusters', () => {
  test('DROP, TRUNCATE, DELETE without WHERE, dropDatabase, FLUSHALL sent to a client; dropdb, mysqladmin drop', () => {
    expectVerdicts([
      "psql -c 'DROP TABLE users' → drop-database/sql-destroy: DROP TABLE sent to a database client destroys data",
      "psql -c 'drop database app;' → drop-database/sql-destroy: drop database sent to a database client destroys data",
      "mysql -e 'TRUNCATE TABLE logs' → drop-database/sql-destroy: TRUNCATE TABLE sent to a database client destroys data",
      "mysql -e 'DELETE FROM users;' → drop-database/sql-destroy: DELETE FROM users; sent to a database client destroys data",
      "mysql -e 'DELETE FROM users WHERE id=1;' →",
      "psql -c 'SELECT 1' →",
      "echo 'DROP TABLE x' > migration.sql →",
      "docker exec db psql -c 'DROP SCHEMA public CASCADE' → drop-database/sql-destroy: DROP SCHEMA sent to a database client destroys data",
      'psql <<EOF\nDROP TABLE x;\nEOF → drop-database/sql-destroy: DROP TABLE sent to a database client destroys data',
      "mongosh --eval 'db.dropDatabase()' → drop-database/sql-destroy: .dropDatabase( sent to a database client destroys data",
      'redis-cli FLUSHALL → drop-database/sql-destroy: FLUSHALL sent to a database client destroys data',
      'redis-cli DEL key →',
      'dropdb app → drop-database/dropdb: dropdb drops a whole database',
      'mysqladmin -u root drop app → drop-database/mysqladmin: mysqladmin drops a whole database',
      'mysqladmin -u root status →',
      'mysqladmin create drop → drop-database/mysqladmin: mysqladmin drops a whole database',
    ]);
  });

  test('docker, podman and nerdctl prunes and removals of everything; one named container or volume passes', () => {
    expectVerdicts([
      'docker system prune -a → infra-destroy/docker-system-prune: docker system prune -a deletes every unused image',
      'docker system prune --volumes → infra-destroy/docker-system-prune: docker system prune --volumes deletes every unused image and volume (databases included)',
      'docker system prune -a --volumes → infra-destroy/docker-system-prune: docker system prune -a deletes every unused image and volume (databases included)',
      'docker system prune --all → infra-destroy/docker-system-prune: docker system prune -a deletes every unused image',
      'docker system prune →',
      'docker system df →',
      'podman volume prune → infra-destroy/podman-volume-prune: podman volume prune deletes volumes and the data in them',
      'docker volume rm $(docker volume ls -q) → infra-destroy/docker-volume-prune: docker volume rm deletes volumes and the data in them',
      'docker volume rm data →',
      'docker volume ls →',
      'docker rm -f $(docker ps -aq) → infra-destroy/docker-rm-all: docker rm $(docker ps -aq) removes every container or image on the machine',
      'docker rmi $(docker images -q) → infra-destroy/docker-rm-all: docker rmi $(docker images -q) removes every container or image on the machine',
      'docker kill $(docker ps -q) → infra-destroy/docker-rm-all: docker kill $(docker ps -q) removes every container or image on the machine',
      'docker rm $(docker ps -aq --filter status=exited) →',
      'docker container rm $(docker ps -aq) → infra-destroy/docker-rm-all: docker container rm $(docker ps -aq) removes every container or image on the machine',
      'docker image prune $(docker images -q) → infra-destroy/docker-rm-all: docker image prune $(docker images -q) removes every container or image on the machine',
      'docker container ls $(docker ps -aq) →',
      'docker image rm one →',
      'docker network rm $(docker ps -aq) →',
      'nerdctl rm -f $(nerdctl ps -aq) → infra-destroy/nerdctl-rm-all: nerdctl rm $(nerdctl ps -aq) removes every container or image on the machine',
    ]);
  });

  test('kubectl and oc deletes of namespaces, projects, volumes, nodes or everything; helm uninstall', () => {
    expectVerdicts([
      'kubectl delete ns staging → infra-destroy/kubectl-delete-kind: kubectl delete ns deletes every resource in it',
      'kubectl delete namespace,pod staging x → infra-destroy/kubectl-delete-kind: kubectl delete namespace,pod deletes every resource in it',
      'kubectl delete pvc data → infra-destroy/kubectl-delete-kind: kubectl delete pvc deletes cluster-wide state and the data it holds',
      'kubectl -n x delete pods --all → infra-destroy/kubectl-delete-all: kubectl delete --all deletes every resource of that kind',
      'kubectl delete pods -A → infra-destroy/kubectl-delete-all: kubectl delete --all deletes every resource of that kind',
      'kubectl delete all -l app=x → infra-destroy/kubectl-delete-all: kubectl delete --all deletes every resource of that kind',
      'kubectl delete pod web-1 →',
      'kubectl delete -f app.yaml →',
      'kubectl get ns →',
      'kubectl --context prod delete node n1 → infra-destroy/kubectl-delete-kind: kubectl delete node deletes cluster-wide state and the data it holds',
      'oc delete project demo → infra-destroy/kubectl-delete-kind: oc delete project deletes every resource in it',
      'helm uninstall web → infra-destroy/helm-uninstall: helm uninstall removes a release and its resources',
      'helm upgrade web . →',
    ]);
  });
});

describe('dangerous-commands: infrastructure as code and clouds', () => {
  test('terraform, tofu, terragrunt, pulumi, cdk and serverless teardowns; plans and deploys pass', () => {
    expectVerdicts([
      'terraform destroy → infra-destroy/terraform-destroy: terraform destroy deletes every resource of the configuration',
      'terraform apply -destroy → infra-destroy/terraform-destroy: terraform destroy deletes every resource of the configuration',
      'terraform apply --destroy → infra-destroy/terraform-destroy: terraform destroy deletes every resource of the configuration',
      'terraform apply →',
      'terraform plan -destroy →',
      'terragrunt run-all destroy → infra-destroy/terragrunt-destroy: terragrunt destroy deletes every resource of the configuration',
      'terragrunt run-all plan →',
      'tofu destroy → infra-destroy/tofu-destroy: tofu destroy deletes every resource of the configuration',
      'pulumi destroy → infra-destroy/pulumi-destroy: pulumi destroy deletes every resource of the stack',
      'cdk destroy → infra-destroy/cdk-destroy: cdk destroy deletes every resource of the stack',
      'cdktf destroy → infra-destroy/cdktf-destroy: cdktf destroy deletes every resource of the stack',
      'cdk deploy →',
      'sls remove → infra-destroy/serverless-remove: sls remove deletes the deployed service',
      'serverless remove → infra-destroy/serverless-remove: serverless remove deletes the deployed service',
      'serverless deploy →',
    ]);
  });

  test('aws, gcloud, gsutil and az deletes; single objects, messages, tags, listings and dry runs pass', () => {
    expectVerdicts([
      'aws s3 rm s3://b --recursive → infra-destroy/aws-s3-rm: aws s3 rm --recursive deletes every object under the prefix',
      'aws s3 rm s3://b/one →',
      'aws s3 rb s3://b → infra-destroy/aws-s3-rb: aws s3 rb deletes the bucket',
      'aws s3 rb s3://b --dry-run →',
      'aws s3 sync . s3://b --delete →',
      'aws ec2 terminate-instances --instance-ids i-1 → infra-destroy/aws-delete: aws ec2 terminate-instances deletes cloud resources',
      'aws ec2 terminate-instances --dryrun --instance-ids i-1 →',
      'aws sqs delete-message --queue-url q →',
      'aws ec2 delete-tags --resources r →',
      'aws s3api delete-object --bucket b --key k →',
      'aws iam delete-role --role-name r → infra-destroy/aws-delete: aws iam delete-role deletes cloud resources',
      'aws --region eu-west-1 rds delete-db-instance --db x → infra-destroy/aws-delete: aws rds delete-db-instance deletes cloud resources',
      'aws ec2 describe-instances →',
      'gcloud storage rm -r gs://b → infra-destroy/gcloud-storage-rm: gcloud storage rm deletes a bucket or everything under a prefix',
      'gcloud storage rm gs://b/one →',
      'gcloud storage buckets delete gs://b → infra-destroy/gcloud-storage-rm: gcloud storage buckets deletes a bucket or everything under a prefix',
      'gcloud storage buckets list →',
      'gcloud compute instances delete vm-1 --zone z → infra-destroy/gcloud-delete: gcloud compute instances delete deletes cloud resources',
      'gcloud --project p sql instances delete db → infra-destroy/gcloud-delete: gcloud p sql instances deletes cloud resources',
      'gcloud compute instances list →',
      'gsutil rm -r gs://b → infra-destroy/gsutil-rm: gsutil rm deletes a bucket or everything under a prefix',
      'gsutil rm -a gs://b/x → infra-destroy/gsutil-rm: gsutil rm deletes a bucket or everything under a prefix',
      'gsutil rm gs://b/x →',
      'gsutil rb gs://b → infra-destroy/gsutil-rm: gsutil rb deletes a bucket or everything under a prefix',
      'gsutil ls -r gs://b →',
      'az group delete --name rg → infra-destroy/az-delete: az group delete rg deletes cloud resources',
      'az --verbose storage account delete -n x → infra-destroy/az-delete: az storage account delete deletes cloud resources',
      'az storage blob delete-batch -s c → infra-destroy/az-delete: az storage blob delete-batch deletes cloud resources',
      'az group list →',
    ]);
  });

  test('doctl, linode-cli, hcloud, vultr-cli, heroku, fly, firebase, vercel, eksctl and supabase teardowns', () => {
    expectVerdicts([
      'doctl compute droplet delete web → infra-destroy/doctl-delete: doctl compute droplet delete deletes cloud resources',
      'linode-cli linodes rm 1 → infra-destroy/linode-cli-delete: linode-cli linodes rm 1 deletes cloud resources',
      'hcloud server delete web → infra-destroy/hcloud-delete: hcloud server delete web deletes cloud resources',
      'vultr-cli instance d 1 → infra-destroy/vultr-cli-delete: vultr-cli instance d 1 deletes cloud resources',
      'hcloud server list →',
      'heroku apps:destroy app → infra-destroy/heroku-destroy: heroku apps:destroy deletes an app or its data',
      'heroku pg:reset → infra-destroy/heroku-destroy: heroku pg:reset deletes an app or its data',
      'heroku logs →',
      'fly apps destroy app → infra-destroy/fly-destroy: fly apps destroy deletes an app',
      'flyctl destroy app → infra-destroy/fly-destroy: flyctl destroy app deletes an app',
      'fly deploy →',
      'fly apps list →',
      'firebase projects:delete p → infra-destroy/firebase-delete: firebase projects:delete deletes project data',
      'firebase firestore:delete -r /x → infra-destroy/firebase-delete: firebase firestore:delete deletes project data',
      'firebase firestore:delete /x/doc →',
      'firebase deploy →',
      'vercel remove app → infra-destroy/vercel-remove: vercel remove deletes deployments',
      'vercel rm app → infra-destroy/vercel-remove: vercel remove deletes deployments',
      'vercel deploy →',
      'eksctl delete cluster prod → infra-destroy/eksctl-delete: eksctl delete cluster deletes cluster resources',
      'eksctl create cluster →',
      'eksctl delete → infra-destroy/eksctl-delete: eksctl delete deletes cluster resources',
      'supabase db reset --linked → infra-destroy/supabase-reset: supabase db reset --linked wipes the remote database',
      'supabase db reset --db-url postgres://x → infra-destroy/supabase-reset: supabase db reset --linked wipes the remote database',
      'supabase db reset →',
      'supabase db push --linked →',
    ]);
  });
});

describe('dangerous-commands: look-alikes of infrastructure teardowns', () => {
  test('option values before the kind, other subcommands with the same words', () => {
    expectVerdicts([
      'kubectl delete --wait=false ns staging → infra-destroy/kubectl-delete-kind: kubectl delete ns deletes every resource in it',
      'kubectl delete -n prod pvc data → infra-destroy/kubectl-delete-kind: kubectl delete pvc deletes cluster-wide state and the data it holds',
      'docker system df -a →',
      'docker image prune -a →',
      'docker volume rm $(docker volume ls -q) data → infra-destroy/docker-volume-prune: docker volume rm deletes volumes and the data in them',
      'aws ecr rm --recursive x →',
      'aws mq rb x →',
      'terragrunt plan destroy →',
      'gcloud storage ls -r gs://b →',
      'gcloud source rm -r x →',
      'fly machines destroy m1 →',
      'supabase test reset --linked →',
    ]);
  });
});
